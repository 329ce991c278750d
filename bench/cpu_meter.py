"""The CPU kept busy while the table plays: the whole machine, the table and the bot worker."""

from __future__ import annotations

import os
import time

from bench.frame_results import CpuShare


class CpuMeter:
    """Reads the CPU time of the machine, this process and the bot worker (Linux ``/proc``)."""

    def __init__(self, worker_pid: int | None) -> None:
        self.worker_pid = worker_pid
        self.tick = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
        self.start = self.read()
        self.started = time.perf_counter()

    def read(self) -> tuple[float, float, float] | None:
        """Return busy seconds of every core together, of this process and of the worker."""
        try:
            with open("/proc/stat", encoding="ascii") as stat:
                fields = [int(value) for value in stat.readline().split()[1:]]
            worker = 0.0
            if self.worker_pid is not None:
                with open(f"/proc/{self.worker_pid}/stat", encoding="ascii") as stat:
                    values = stat.read().rsplit(")", 1)[1].split()
                worker = (int(values[11]) + int(values[12])) / self.tick
        except (OSError, ValueError, IndexError):
            return None
        idle = fields[3] + fields[4]
        busy = (sum(fields[:8]) - idle) / self.tick
        return busy, time.process_time(), worker

    def share(self) -> CpuShare | None:
        """Return the cores busy since this meter was made, or None off Linux."""
        end = self.read()
        if self.start is None or end is None:
            return None
        seconds = time.perf_counter() - self.started
        machine, table, worker = (
            (after - before) / seconds for before, after in zip(self.start, end, strict=True)
        )
        return CpuShare(machine, table, worker)
