#!/usr/bin/env bash
# Prints the shipped network's file, models/NAME.pt: the `model:` line of config/zhbot.yaml,
# which the test Config.TheShippedConfigFileHoldsEveryOptionAtItsDefault keeps equal to zhbot's
# built-in default (kShippedModel). The tools take their default network from here, so shipping
# a network changes that constant and the regenerated config, and nothing in tools/.
set -euo pipefail
cd "$(dirname "$0")/../.."
name=$(sed -n 's/^  model: "\(.*\)"$/\1/p' config/zhbot.yaml)
[[ -n "$name" ]] || { echo "shipped_model: config/zhbot.yaml has no model line" >&2; exit 1; }
echo "models/$name"
