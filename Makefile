# The front door. `make test` is what CI runs (.ci/run).
BUILD_DIR ?= build/default
BUILD_TYPE ?= RelWithDebInfo
ZHBOT := $(BUILD_DIR)/bot/zhbot
export OPENBLAS_NUM_THREADS ?= 1

.PHONY: deps configure build test bench perft-bench clean

deps:
	@bash deploy/install-deps.sh

$(BUILD_DIR)/build.ninja:
	cmake -S . -B $(BUILD_DIR) -G Ninja -DCMAKE_BUILD_TYPE=$(BUILD_TYPE)

configure: deps $(BUILD_DIR)/build.ninja

build: configure
	cmake --build $(BUILD_DIR)

# Every test except the long soak (label `slow`).
test: build
	cd $(BUILD_DIR) && ctest --output-on-failure -j2 -LE slow

# Benchmarks are programs; each prints its figures and the ratio to its anchor.
bench: perft-bench

perft-bench: build
	$(ZHBOT) perft --bench
	python3 tools/perft_vs_fairy.py --zhbot $(ZHBOT) --rounds 3

clean:
	rm -rf $(BUILD_DIR)
