"""The search benchmark's workload and its table of what reading the other players costs."""

from __future__ import annotations

from typing import Any

import pytest

from ai.hard import HardBot
from ai.inference import DEFAULT_MODEL
from bench import search, search_threads


def test_early_positions_follow_a_pass_within_the_first_two_tricks() -> None:
    workload = search.build_workload(5, hands=6)
    assert len(workload.early) == 6
    for observation in workload.early:
        assert observation.received is not None and observation.passed is not None
        assert sum(len(trick.cards) for trick in observation.tricks) < 8
    # The other positions do not depend on the early ones.
    again = search.build_workload(5, hands=6)
    assert again.middles == workload.middles and again.early == workload.early


def test_the_reading_table_times_each_reader_on_the_same_positions(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    readers: list[Any] = []

    class Recording(HardBot):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            readers.append(kwargs.get("reader", DEFAULT_MODEL))
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(search, "HardBot", Recording)
    early = search.build_workload(5, hands=2).early
    title, _, rows = search.reading_table(early, 5)
    assert "5 ms" in title and "2 positions" in title
    assert [row[0] for row in rows] == [
        "plays and the pass",
        "plays by the explorations alone, and the pass",
        "plays only",
        "nothing (uniform deals)",
    ]
    # Samples in 5 ms depend on the machine: only their form is checked.
    assert all(row[1].replace(",", "").isdigit() for row in rows)
    assert readers[0] == DEFAULT_MODEL and DEFAULT_MODEL.passing is not None
    assert DEFAULT_MODEL.learned is not None and DEFAULT_MODEL.mixture is not None
    assert readers[1] is not None and readers[1].learned is None and readers[1].mixture is None
    assert readers[1].passing == DEFAULT_MODEL.passing
    assert readers[2] is not None and readers[2].passing is None
    assert readers[2].lead == DEFAULT_MODEL.lead and readers[3] is None


def test_the_tallies_table_times_the_same_valuation_with_and_without_them() -> None:
    observations = search.build_workload(5, hands=3).observations
    title, header, rows = search.tallies_table(observations, 0.01)
    assert observations and f"{len(observations)} positions" in title
    assert header == ["search", "deals/s without", "deals/s with tallies", "time ratio"]
    assert [row[0].split(" ")[0] for row in rows] == ["plain", "deep"]
    for row in rows:
        assert row[1].replace(",", "").isdigit() and row[2].replace(",", "").isdigit()
        assert row[3].endswith("×")


def test_the_threads_tables_time_each_count_and_model_more() -> None:
    workload = search.build_workload(5, hands=3)
    tables, p95s = search_threads.thread_tables(
        workload.observations[:2], workload.observations[:2], [5], [1, 2], deals=20
    )
    (title, header, rows), (model_title, model_header, model_rows) = tables
    assert "2 positions" in title and header[:3] == [
        "threads",
        "decisions/s at 20 deals",
        "speedup",
    ]
    assert [row[0] for row in rows] == ["1", "2"] and rows[0][2] == "1.00×"
    assert [label for label, _, _ in p95s] == ["1 thread", "2 threads"]
    assert "Amdahl" in model_title and len(model_header) == 6
    assert model_header[3].startswith("overlapped from 2, c = ")
    assert [row[0] for row in model_rows] == [str(n) for n in search_threads.MODEL_THREADS]
    # One thread is the measured rate: the models predict no speedup there.
    assert all(cell == "1.00×" for cell in model_rows[0][1:5])


def test_amdahls_model_and_its_inverse() -> None:
    assert search_threads.amdahl(0.5, 2) == pytest.approx(4 / 3)
    assert search_threads.amdahl(0.75, 8) == pytest.approx(1 / (0.25 + 0.75 / 8))
    assert search_threads.parallel_from_speedup(4 / 3, 2) == pytest.approx(0.5)
    # A measured slowdown or a speedup beyond the threads is clamped to the possible range.
    assert search_threads.parallel_from_speedup(0.8, 2) == 0.0
    assert search_threads.parallel_from_speedup(2.5, 2) == 1.0


def test_the_overlapped_model_divides_the_kernel_until_the_calling_thread_is_slower() -> None:
    # One thread takes c + k; from two on, the kernel divides while it is the slower of the
    # two, then the calling thread sets the pace.
    assert search_threads.overlapped(0.2, 0.8, 1) == 1.0
    assert search_threads.overlapped(0.2, 0.8, 2) == pytest.approx(1.0 / 0.4)
    assert search_threads.overlapped(0.2, 0.8, 8) == pytest.approx(1.0 / 0.2)
    assert search_threads.overlapped(0.6, 0.4, 4) == pytest.approx(1.0 / 0.6)


@pytest.mark.parametrize(
    ("text", "message"),
    [("1,x", "whole numbers"), ("0", "from 1 to 256"), ("1,300", "from 1 to 256")],
)
def test_bad_thread_counts_are_refused(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        search._thread_counts(text)
    assert search._thread_counts(" 1, 2 ,4") == [1, 2, 4] and search._thread_counts("") == []
