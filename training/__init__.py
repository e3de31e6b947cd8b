"""zhbot's training package: read the shards `zhbot datagen` writes, train a network on them,
export it for the engine's torch backend. Needs numpy and torch (Debian: /usr/bin/python3)."""
