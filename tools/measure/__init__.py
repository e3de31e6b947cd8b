"""Measurement: strength matches, tactical suites, perft and search speed, latency checks."""
