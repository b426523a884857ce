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
    """Blocks ``(name, size, high, meaning)`` laid end to end in a uint8 vector.

    ``scales`` gives the factor a network multiplies a block by (1 where not named;
    ``network_scale``), so that counts reach the network near the one-hots' range.
    """

    def __init__(
        self,
        blocks: Sequence[tuple[str, int, int, str]],
        scales: dict[str, float | Sequence[float]] | None = None,
    ) -> None:
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
        self._scale = np.ones(off, np.float32)
        stops = {name: stop for name, _start, stop, _m in slices}
        for name, value in (scales or {}).items():
            self._scale[self.start[name] : stops[name]] = value

    def __getitem__(self, name: str) -> int:
        return self.start[name]

    def network_scale(self) -> npt.NDArray[np.float32]:
        """Each feature's factor before a network (a new array)."""
        return self._scale.copy()

    def bounds(self) -> tuple[ByteArray, ByteArray]:
        """``low`` and ``high`` of the observation Box."""
        return np.zeros(self.size, np.uint8), self._high.copy()
