# The front door. `make test` is the quick developer loop; CI (.ci/run) runs `make lint` and the
# `ci-*` targets below (ci-release runs the same suites against the -O3 build).
BUILD_DIR ?= build/default
BUILD_TYPE ?= RelWithDebInfo
# OFF builds the daemon and the engine alone (faster; no tests, no emulator, so no offline demo).
# Read when BUILD_DIR is configured, i.e. on its first build.
ZH_BUILD_TESTS ?= ON
ZHBOT := $(BUILD_DIR)/bot/zhbot
export OPENBLAS_NUM_THREADS ?= 1

.PHONY: deps configure build test lint bench search-bench perft-bench nn-bench run demo soak fuzz \
	strength fuzz-build clean ci ci-release ci-asan ci-tsan ci-fuzz ci-engine-only

deps:
	@bash deploy/install-deps.sh

$(BUILD_DIR)/build.ninja:
	cmake -S . -B $(BUILD_DIR) -G Ninja -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) -DZH_WERROR=ON \
		-DZH_BUILD_TESTS=$(ZH_BUILD_TESTS)

configure: deps $(BUILD_DIR)/build.ninja

build: configure
	cmake --build $(BUILD_DIR)

# Every test except the long soak (label `slow`).
test: build
	cd $(BUILD_DIR) && ctest --output-on-failure -j2 -LE slow

# Style: clang-format over the C++ sources, flake8 over training/ and tools/ (changes nothing).
lint: deps
	bash tools/ci/check_style.sh

# Benchmarks are programs; each prints its figures and the ratio to its anchor.
bench: search-bench perft-bench nn-bench

search-bench: build
	$(ZHBOT) bench

perft-bench: build
	$(ZHBOT) perft --bench
	python3 -m tools.measure.perft_vs_fairy --zhbot $(ZHBOT) --rounds 3

# A random-weight 6x64 residual net: the size the targets are set for (no model download).
BENCH_NET := $(BUILD_DIR)/bench-net-6x64.pt
$(BENCH_NET):
	/usr/bin/python3 -m training.make_random_net $@ --arch resnet-6x64 --seed 1

nn-bench: build $(BENCH_NET)
	$(ZHBOT) nnbench --model $(BENCH_NET) --batch 1,8,16,64 --threads 2 --precision fp32
	python3 -m tools.measure.search_efficiency --zhbot $(ZHBOT) --rounds 3

# With a token: the daemon against lichess.org (any build). Without: the offline demo, which
# needs the lichess emulator, a test program (a build with -DZH_BUILD_TESTS=OFF has none, and the
# demo says so). ZHBOT_CONFIG picks another config file.
ZHBOT_CONFIG ?= config/zhbot.yaml
run: build
ifdef LICHESS_BOT_TOKEN
	$(ZHBOT) run --config $(ZHBOT_CONFIG)
else
	@echo "LICHESS_BOT_TOKEN is not set: running the offline demo against the local emulator"
	@bash tools/ci/demo.sh $(BUILD_DIR)
endif

demo: build
	bash tools/ci/demo.sh $(BUILD_DIR)

# The strength ladder (docs/strength.md): the shipped configuration's network against
# Fairy-Stockfish rung by rung at 1+1, one core per side, then a 3+2 confirmation at the highest
# rung passed. About 75 s a game; resumes where it stopped (results in STRENGTH_DIR, by default
# the lab folder outside the checkout: $$ZHBOT_LAB or /var/tmp/zhbot-lab, strength/ladder).
STRENGTH_DIR ?=
strength: build
	python3 -m tools.measure.strength ladder --a zhbot --zhbot $(ZHBOT) --tc 1+1 --games 20 \
		$(if $(STRENGTH_DIR),--dir $(STRENGTH_DIR))
	python3 -m tools.measure.strength report --a zhbot $(if $(STRENGTH_DIR),--dir $(STRENGTH_DIR))

# The soak run: GAMES games, three at a time, random faults at every layer; prints one table.
GAMES ?= 50
soak: build
	$(BUILD_DIR)/tests/e2e/e2e-soak --games $(GAMES) --dir $(BUILD_DIR)/soak-run

# Fuzzing (clang libFuzzer, ASan+UBSan; tests/fuzz): every parser of untrusted input for
# FUZZ_SECONDS each, one after the other. Its own build tree: everything is instrumented
# (warnings are not errors there: -Werror is tuned for g++).
FUZZ_DIR ?= build/fuzz
FUZZ_SECONDS ?= 60
$(FUZZ_DIR)/build.ninja:
	CXX=clang++ cmake -S . -B $(FUZZ_DIR) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
		-DZH_FUZZ=ON -DZH_BUILD_TESTS=OFF -DZH_WITH_TORCH=OFF -DZH_WERROR=OFF

fuzz-build: deps $(FUZZ_DIR)/build.ninja
	cmake --build $(FUZZ_DIR) --target fuzz_targets

fuzz: fuzz-build
	bash tools/ci/fuzz.sh $(FUZZ_DIR) $(FUZZ_SECONDS)

# CI: each target for 10 s (the fuzz stage measured 406 s cold with 20 s; docs/building.md).
ci-fuzz:
	$(MAKE) fuzz FUZZ_SECONDS=10

# ---- CI matrix: the configurations the README tells people to use (CMakePresets.json) ----
# One target per configuration, run in this order. To add one: write its ci-<name> target
# below (configure its preset, build only the targets it needs, run its checks) and name it here.
ci: ci-release ci-asan ci-tsan

# Every core of the CI machine; make CI_JOBS=2 on a shared one.
CI_JOBS ?= $(shell nproc)
# Builds one preset's targets: $(call ci_build,<preset>,<targets; empty: the preset's own>).
ci_build = cmake --build --preset $(1) -j $(CI_JOBS) $(if $(2),--target $(2))

# What systemd and Docker ship: all targets at -O3, warnings as errors here (the operator's own
# build of the same preset keeps them warnings), every test but the soak against that build (CI's
# one optimised run of the suites: what ships is what is tested), then the release binary's own
# checks.
RELEASE_ZHBOT := build/release/bot/zhbot
ci-release: deps
	cmake --preset release -DZH_WERROR=ON
	$(call ci_build,release,all)
	ctest --preset release -j $(CI_JOBS) -LE slow
	$(RELEASE_ZHBOT) --version
	$(RELEASE_ZHBOT) perft --bench
	$(RELEASE_ZHBOT) bench > build/release/bench.txt; status=$$?; cat build/release/bench.txt; \
	  exit $$status
	@grep -Eq '^Signature: [0-9a-f]{16}$$' build/release/bench.txt \
	  || { echo "ci-release: zhbot bench printed no signature" >&2; exit 1; }

# ASan + UBSan over the unit and integration suites. Any finding fails: the process that hits it
# stops (halt_on_error, -fno-sanitize-recover), and tools/ci/sanitizer_reports.sh also fails on the
# reports that programs started by the tests wrote (options and report folder: the test preset).
ci-asan: deps
	cmake --preset asan
	$(call ci_build,asan)
	bash tools/ci/sanitizer_reports.sh build/asan/sanitizer-reports \
	  ctest --preset asan -j $(CI_JOBS)

# TSan over every suite that runs threads (ctest label `tsan`).
ci-tsan: deps
	cmake --preset tsan
	$(call ci_build,tsan)
	bash tools/ci/sanitizer_reports.sh build/tsan/sanitizer-reports \
	  ctest --preset tsan -j $(CI_JOBS)

# The engine and its commands alone (-DZH_BUILD_BOT=OFF: LibTorch, CMake and header-only
# libraries), as a GPU machine with only a CUDA PyTorch builds them; then a datagen/nneval smoke.
ENGINE_ONLY_DIR := build/engine-only
# Release flags as ci-release's: after it, the engine's objects come from ccache.
ci-engine-only: deps
	cmake -S . -B $(ENGINE_ONLY_DIR) -G Ninja -DCMAKE_BUILD_TYPE=Release \
	  -DZH_BUILD_BOT=OFF -DZH_BUILD_TESTS=OFF -DZH_WERROR=ON
	cmake --build $(ENGINE_ONLY_DIR) --target zhbot
	$(ENGINE_ONLY_DIR)/engine/cli/zhbot --version
	rm -rf $(ENGINE_ONLY_DIR)/smoke
	$(ENGINE_ONLY_DIR)/engine/cli/zhbot datagen --import tests/data/datagen/sample.jsonl \
	  --out $(ENGINE_ONLY_DIR)/smoke
	$(ENGINE_ONLY_DIR)/engine/cli/zhbot nneval --backend material --count 6 \
	  --records $(ENGINE_ONLY_DIR)/smoke/sample-000000.zhrec

clean:
	rm -rf $(BUILD_DIR) $(FUZZ_DIR)
