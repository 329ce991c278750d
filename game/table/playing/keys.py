"""The table's keys as data: which key (with Ctrl or Shift) gives which command.

A key is looked up with its modifiers, then without Shift, then bare, so Ctrl+Shift+Z can mean
something of its own while Shift+H is still H. A command either works while cards move (the
menu, undo, the score sheet) or only once the table is still; any other key pressed while cards
move hurries them (``TableControls.key``).
"""

from __future__ import annotations

from dataclasses import dataclass

import pygame

#: The modifiers a key is looked up with.
CTRL, SHIFT = 1, 2


@dataclass(frozen=True)
class KeyCommand:
    """A command the table runs for a key: the name of a ``TableControls`` method, whether it
    works while cards move, and whether only while the person watches the bots."""

    command: str
    while_moving: bool = True
    watching_only: bool = False


#: The table's keys.
KEYS: dict[tuple[int, int], KeyCommand] = {
    (pygame.K_ESCAPE, 0): KeyCommand("open_menu"),
    (pygame.K_z, CTRL): KeyCommand("undo"),
    (pygame.K_z, CTRL | SHIFT): KeyCommand("redo"),
    (pygame.K_y, CTRL): KeyCommand("redo"),
    (pygame.K_h, 0): KeyCommand("hint"),
    (pygame.K_s, 0): KeyCommand("open_scores"),
    (pygame.K_f, 0): KeyCommand("toggle_hands", watching_only=True),
    (pygame.K_l, 0): KeyCommand("open_last_trick"),
    (pygame.K_m, 0): KeyCommand("toggle_sound"),
    (pygame.K_SPACE, 0): KeyCommand("play_hint", while_moving=False),
    (pygame.K_LEFT, 0): KeyCommand("focus_left", while_moving=False),
    (pygame.K_RIGHT, 0): KeyCommand("focus_right", while_moving=False),
    (pygame.K_UP, 0): KeyCommand("choose_focused", while_moving=False),
    (pygame.K_DOWN, 0): KeyCommand("put_back_focused", while_moving=False),
    (pygame.K_RETURN, 0): KeyCommand("confirm", while_moving=False),
    (pygame.K_KP_ENTER, 0): KeyCommand("confirm", while_moving=False),
}

#: Keys kept while cards move and acted on once they have landed: the score sheet, the last trick.
WAITING_KEYS = (pygame.K_s, pygame.K_l)
#: Keys kept when they skipped a moment, to act on afterwards (without Ctrl).
AFTER_SKIP_KEYS = (*WAITING_KEYS, pygame.K_h, pygame.K_m)


def modifiers(mod: int) -> int:
    """Return the ``CTRL`` and ``SHIFT`` bits of a pygame key event's ``mod`` (Cmd is Ctrl)."""
    bits = CTRL if mod & (pygame.KMOD_CTRL | pygame.KMOD_META) else 0
    return bits | (SHIFT if mod & pygame.KMOD_SHIFT else 0)


def key_command(key: int, mod: int) -> KeyCommand | None:
    """Return the command of a key pressed with ``mod``, if it has one."""
    bits = modifiers(mod)
    for tried in (bits, bits & ~SHIFT, 0):
        found = KEYS.get((key, tried))
        if found is not None:
            return found
    return None
