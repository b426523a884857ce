"""Named blocks of a flat observation vector, so each game's layout is data.

The classic layout (``spec``) was written out as constants; the modern games' layouts
are declared as a list of blocks instead, and everything a user reads (the offsets, the
bounds of the Box, the table in docs/rl.md) comes from that one list, so they cannot
disagree.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

ByteArray = npt.NDArray[np.uint8]


class Layout:
    """Blocks ``(name, size, high, meaning)`` laid end to end in a uint8 vector."""

    def __init__(self, blocks: Sequence[tuple[str, int, int, str]]) -> None:
        self.start: dict[str, int] = {}
        slices = []
        highs: list[int] = []
        off = 0
        for name, size, high, meaning in blocks:
            if name in self.start:
                raise ValueError(f"block {name!r} twice")
            self.start[name] = off
            slices.append((name, off, off + size, meaning))
            highs.extend([high] * size)
            off += size
        self.size = off
        self.slices: tuple[tuple[str, int, int, str], ...] = tuple(slices)
        self._high = np.asarray(highs, np.uint8)

    def __getitem__(self, name: str) -> int:
        return self.start[name]

    def bounds(self) -> tuple[ByteArray, ByteArray]:
        """``low`` and ``high`` of the observation Box."""
        return np.zeros(self.size, np.uint8), self._high.copy()
