# shellcheck shell=bash
# The next network's recipe, the one place its settings live (sourced). The lab's tools default
# to it, so the background chunks, the status, a GPU server's chunks and the run itself all work
# on the same seeds: tools/lab/next_network.sh, tools/lab/lab_chunks.sh, tools/lab/lab_status.sh
# and tools/gpu/gpu_session.sh. A setting in the environment wins over the recipe's. Why these
# values: models/README.md, "Next".
#
# zhbot-net-5: the starter set and 64 chunks of 3 000 games at 3 000 nodes, seeds 20010-20073
# (20010-20041 are zhbot-net-4's, already made; the rest are new), warm from zhbot-net-4.
: "${NAME:=zhbot-net-5}"
: "${NODES:=3000}"
: "${CHUNK_GAMES:=3000}"
: "${SEED:=20010}"
: "${CHUNKS:=64}"
: "${TRAIN_MINUTES:=0}"  # a fixed step count: the same network on a loaded machine
: "${TRAIN_OPTS:=--batch-size 512 --lr 0.02 --epoch-steps 3000 --seed 1 --max-steps 40000 --init-from models/zhbot-net-4.pt}"
