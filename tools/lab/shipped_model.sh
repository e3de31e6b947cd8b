#!/usr/bin/env bash
# Prints the shipped network's file, models/NAME.pt, for the shell tools (tools/zhtools/shipped.py).
cd "$(dirname "$0")/../.." || exit 2
exec python3 -m tools.zhtools.shipped
