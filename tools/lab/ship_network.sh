#!/usr/bin/env bash
# Makes a trained network the shipped default; it checks everything before it changes anything:
#   - copies NAME.pt and its int8 file NAME-int8.pt (training/quantize.py) into models/;
#   - names NAME.pt in kShippedModel (engine/evaluator_loader.cpp), zhbot's built-in default;
#   - names it on config/zhbot.yaml's model line, which tools/lab/shipped_model.sh (and so every
#     tool and test) reads, and which Config.TheShippedConfigFileHoldsEveryOptionAtItsDefault
#     keeps equal to the built-in default.
# The earlier network stays in models/ (the card's commands and the next match name it). The
# decision, and the card and README figures that justify it, stay with a person (the end of
# training/README.md's lab section). Then: make build && make test.
# Usage: tools/lab/ship_network.sh LAB/NAME/NAME.pt
set -euo pipefail
cd "$(dirname "$0")/../.."
fail() { echo "ship_network: $*" >&2; exit 1; }
(($# == 1)) || fail "usage: tools/lab/ship_network.sh PATH/NAME.pt"
model=$1
name=$(basename "$model")
int8="${model%.pt}-int8.pt"
loader=engine/evaluator_loader.cpp
config=config/zhbot.yaml
max_bytes=$((20 * 1024 * 1024))  # what the repository takes for a model file
loader_line='^constexpr const char\* kShippedModel = "[^"]*";$'

# Every check first, so a bad input changes nothing.
[[ "$name" =~ ^[A-Za-z0-9._-]+\.pt$ && "$name" != *-int8.pt ]] ||
  fail "$model: expected a network file NAME.pt (not its int8 file), NAME of letters, digits, . _ -"
[[ -f "$model" ]] || fail "$model: no such file"
[[ -f "$int8" ]] || fail "$int8: no int8 file beside the network (python3 -m training.quantize)"
for f in "$model" "$int8"; do
  (($(stat -c %s "$f") <= max_bytes)) || fail "$f: larger than 20 MB, too large to commit"
done
current=$(tools/lab/shipped_model.sh)  # fails, saying why, when the config has no model line
[[ "$current" != "models/$name" ]] || fail "$name is already the shipped network"
grep -q "$loader_line" "$loader" || fail "$loader: no kShippedModel line to change"

cp "$model" "models/$name"
cp "$int8" "models/$(basename "$int8")"
sed -i "s|$loader_line|constexpr const char* kShippedModel = \"$name\";|" "$loader"
sed -i "s|^  model: \"[^\"]*\"\$|  model: \"$name\"|" "$config"
[[ "$(tools/lab/shipped_model.sh)" == "models/$name" ]] || fail "$config: the model line did not change"
echo "shipped $name (was ${current#models/}): models/, $loader, $config"
echo "next: make build && make test, then the card (models/README.md) and the README's figures"
