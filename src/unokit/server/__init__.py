"""The multiplayer server: rooms, seats, the match over websockets, storage."""
