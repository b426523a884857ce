"""The observation and action tables of ``uno_v1`` (docs/rl.md) and their encoder: what
a seat's view becomes as numbers, and which actions it may take.  Below the bots, so the
learned bot reads views with them, and above the engine; ``unokit.rl`` builds the
environments on them."""
