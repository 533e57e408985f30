# SPDX-License-Identifier: Apache-2.0
# nictx - GNU Make drives everything.  Out-of-tree build in $(BUILD).
#
#   make run     build and run the flagship sweep (report in docs/results/flagship)
#   make check-flagship  the flagship again, from scratch, into build/flagship-check;
#                fails when a figure differs from docs/results/flagship's (about a minute)
#   make run-one build and run one experiment (RUN_ARGS)
#   make test    build and run every test (cmocka unit tests, RTL tests)
#   make test-slurm  nictx sweep --emit-slurm on a one-node Slurm it starts
#   make lint    verilator --lint-only -Wall on the RTL, at every datapath width
#   make bench   simulator speed benchmark (figures, not assertions), native and SystemC VP
#   make synth   Yosys 0.23 elaboration check of the RTL at every width (needs yosys)
#   make area    the engine's area at AREA_ARGS' hardware options (Yosys; docs/codesign.md)
#   make test-codesign  models built on demand, lockstep and area at other hardware
#                combinations (minutes; not in make test)
#   make run-codesign  the co-design sweep (docs/results/codesign)
#   make mutate  mutation testing: how many small bugs the tests catch, every source folder (docs/testing.md)
#   make regress SEEDS=N SEED0=S  randomized regression: N drawn configurations
#                (nictx draw) in lockstep through GNU parallel, from seed S; summary,
#                repro lines, $(BUILD)/regress/junit.xml (240 seeds by default: about 10 minutes)
#   make coverage  RTL (Verilator: line, toggle, cover points) and C (gcov) coverage of
#                the unit, engine and lockstep tests and COV_SEEDS regression seeds;
#                summary and HTML report in build-cov/coverage (docs/coverage.md)
#   make regs    regenerate the register map's files from rtl/regs/nictx_regs.rdl
#                (needs PeakRDL: installed from PyPI into $(BUILD)/peakrdl-venv)
#   make diagram regenerate docs/img/engine.svg from rtl/nictx_tx_top.sv (needs graphviz)
#   make doc-check  run the commands the docs mark runnable, compare what they print
#   make profiles-doc  regenerate docs/profiles.md's settings table (sim/run/settings.c)
#   make observe-pictures  redraw docs/observability.md's pictures (needs gtkwave, xvfb:
#                installed by it)
#   make clean

# SAN=1: AddressSanitizer and UBSan on every C and C++ object of the
# project and on the Verilator runtime (its waveform code with less UBSan:
# VT_SAN, below), in build-san/ (docs/reliability.md).  The code Verilator
# generates from the RTL is not the project's C: SAN=1 links the models
# `make test` builds (VBUILD, below) rather than compiling them again.
SAN      ?=
SAN_ON   := -fsanitize=address,undefined -fsanitize=float-cast-overflow \
            -fno-sanitize-recover=all -fno-omit-frame-pointer
SANFLAGS := $(if $(SAN),$(SAN_ON))
# COV=1: coverage (make coverage, docs/coverage.md), in build-cov/: the RTL
# Verilated with --coverage (line, toggle and the cover points of
# NICTX_COVER; each device writes its counts into $$NICTX_VCOV_DIR when it
# is set) and the C code (sim/, c-model/, driver/) compiled with gcov.
COV      ?=
BUILD    ?= build$(if $(SAN),-san)$(if $(COV),-cov)
# Where the Verilated models are built: BUILD's, but SAN=1's are the
# unsanitized build's (build-san links build's).  Do not run a SAN=1 build
# beside the plain one that builds them.
VBUILD    = $(if $(SAN),$(patsubst %-san,%,$(BUILD)),$(BUILD))
# make fast: the build for sweeps and benchmarks (below).
FAST     := $(BUILD)-fast
FAST_A   := $(BUILD)-fast-assert
# PGO=gen|use: GCC profile feedback and link-time optimization on every
# object and the link, for `make fast` (scripts/pgo-build.sh).  gen: the
# runs of the build record their counts under $(BUILD)/pgo; use: the build
# is compiled from them.  Code no run reached is compiled as without them
# (partial training).
PGO      ?=
PGO_DIR   = $(abspath $(BUILD))/pgo
PGO_gen   = -fprofile-generate=$(PGO_DIR) -fprofile-update=single -flto=auto
PGO_use   = -fprofile-use=$(PGO_DIR) -fprofile-partial-training -fprofile-correction \
            -Wno-missing-profile -flto=auto
# What goes on every C and C++ object and the link; VXFLAGS on the code
# Verilator generates (no sanitizer).
XFLAGS    = $(strip $(SANFLAGS) $(PGO_$(PGO)))
VXFLAGS   = $(strip $(PGO_$(PGO)))
CC       ?= gcc
CXX      ?= g++
OPT      ?= -O2
CFLAGS   ?= $(OPT) -g $(XFLAGS) $(COVFLAGS)
CXXFLAGS ?= $(OPT) -g $(XFLAGS)
COVFLAGS  = $(if $(COV),--coverage)
WARN     := -Wall -Wextra -Werror
DEPFLAGS := -MMD -MP
INCS     := -Isim -Idriver -Itests -Ic-model

# `make` with no target builds everything.
.DEFAULT_GOAL := all
.DELETE_ON_ERROR:
.SUFFIXES:
.PHONY: all run run-one test lint bench synth clean deps results-ownership regs regs-check \
        profiles-doc

# ---------------------------------------------------------------- deps
# One script installs what is missing (apt-get); the stamp keeps it quiet.
DEPS_STAMP := $(BUILD)/.deps-ok
$(DEPS_STAMP): scripts/install-deps.sh
	@bash scripts/install-deps.sh
	@mkdir -p $(@D) && touch $@
deps: $(DEPS_STAMP)

# ---------------------------------------------------------------- RTL
RTL_TOP  := nictx_tx_top
RTL_PKGS := rtl/nictx_reg_pkg.sv rtl/nictx_pkg.sv
RTL_SRCS := $(RTL_PKGS) rtl/prim_fifo_sync.sv rtl/prim_arbiter_rr.sv rtl/prim_rr_pick.sv \
            $(filter-out $(RTL_PKGS),$(sort $(wildcard rtl/nictx_*.sv)))
# RTL_ASSERT=0 builds the engine without its protocol assertions: about 15%
# faster (docs/architecture.md, Simulation speed); tests and CI keep them on.
RTL_ASSERT ?= 1
# -fno-dfg: Verilator 5.006's data-flow-graph optimizer gives the same
# instruction count but code that runs 15-25% slower here (default run, 64 B
# at 100G, bursts of 1; docs/architecture.md, Simulation speed).
VFLAGS   := --cc $(if $(filter 1,$(RTL_ASSERT)),--assert) -Wall -O3 -fno-dfg --top-module $(RTL_TOP) \
            $(if $(COV),--coverage +define+NICTX_COVER)
# The model is compiled at -O3 (verilated.mk's default is -Os): its
# evaluation is most of a run's wall time, and -O3 runs it about 15% faster
# than -O2 here (docs/architecture.md, Simulation speed).
VOPT_FAST ?= -O3
VROOT     = $(shell verilator --getenv VERILATOR_ROOT)
VINC      = -I$(VROOT)/include -I$(VROOT)/include/vltstd

# One Verilated model per datapath width W (bytes per beat): the class
# V$(RTL_TOP)_wW in $(BUILD)/verilated-wW, and sim/device/dev_rtl.cpp compiled for
# it into dev_rtl_wW.o, which exports dev_rtl_ops_wW (sim/device/device.h).
WIDTHS   := 8 16 32 64
vdir      = $(VBUILD)/verilated-w$(1)
vcls      = V$(RTL_TOP)_w$(1)
vlib      = $(call vdir,$(1))/$(call vcls,$(1))__ALL.a
vshim     = $(BUILD)/obj/sim/device/dev_rtl_w$(1).o
# WAVES=1: each width also has a trace-enabled model (--wave,
# docs/observability.md): the same RTL Verilated with --trace-fst into
# V$(RTL_TOP)_wW_trace, compiled at -O1 (it runs only for --wave and a
# failure's snapshot; -O1 builds it in a third of the time of -O3), and the
# shim compiled for it (dev_rtl_trace_wW.o, DEV_RTL_TRACE=1).  The plain
# model stays as it was: it pays nothing for tracing.  The fast builds
# (make fast) leave them out (WAVES=0): --wave then says so.
WAVES    ?= 1
VTFLAGS   = --trace-fst --trace-structs --trace-max-array 64
VOPT_TRACE ?= -O1
# Verilator's tracing code (in the trace shims, from its headers) reads
# 64-bit words at unaligned addresses on purpose, in its own packed buffers
# (x86 allows it): SAN=1 leaves that one check out of it, and keeps every
# other.
VT_SAN    = $(if $(SAN),-fno-sanitize=alignment)
vtdir     = $(VBUILD)/verilated-w$(1)-trace
vtcls     = V$(RTL_TOP)_w$(1)_trace
vtlib     = $(call vtdir,$(1))/$(call vtcls,$(1))__ALL.a
vtshim    = $(BUILD)/obj/sim/device/dev_rtl_trace_w$(1).o
# A width's model as a link needs it: the shim, then its library; then,
# last on the line (the plain model's code stays where it was), the
# trace-enabled one and what the waveforms need of obs/ (an FST writer,
# its files).
vmodel    = $(call vshim,$(1)) $(call vlib,$(1))
vtrace    = $(if $(filter 1,$(WAVES)),$(call vtshim,$(1)) $(call vtlib,$(1))) $(OBS_DEV)
OBS_DEV   = $(BUILD)/obj/sim/obs/obs_fst.o $(BUILD)/obj/sim/obs/obs_file.o

define rtl_model
# The flags are part of the model: rebuild when they change.
$(call vdir,$(1))/vflags: FORCE
	@mkdir -p $$(@D)
	@echo '$$(VFLAGS) -GDataBytes=$(1) $$(VXFLAGS) $$(VOPT_FAST)' | cmp -s - $$@ || \
	    echo '$$(VFLAGS) -GDataBytes=$(1) $$(VXFLAGS) $$(VOPT_FAST)' > $$@

$(call vdir,$(1))/$(call vcls,$(1)).mk: $$(RTL_SRCS) $(call vdir,$(1))/vflags | $$(DEPS_STAMP)
	@mkdir -p $$(@D)
	verilator $$(VFLAGS) -GDataBytes=$(1) --prefix $(call vcls,$(1)) --Mdir $$(abspath $$(@D)) \
	    $$(abspath $$(RTL_SRCS))
	@touch $$@  # verilator keeps the date of a file it leaves unchanged

# verilated.mk cannot see a change of OPT_FAST: start from no objects.
$(call vlib,$(1)): $(call vdir,$(1))/$(call vcls,$(1)).mk $(call vdir,$(1))/vflags
	rm -f $(call vdir,$(1))/*.o $(call vdir,$(1))/*.a
	$$(MAKE) -s -C $(call vdir,$(1)) -f $(call vcls,$(1)).mk OPT_FAST='$$(VOPT_FAST)' \
	    VM_PARALLEL_BUILDS=0 USER_CPPFLAGS='$$(VXFLAGS)' $(call vcls,$(1))__ALL.a

$(call vshim,$(1)): sim/device/dev_rtl.cpp $(call vlib,$(1))
	@mkdir -p $$(@D)
	$$(CXX) $$(CXXFLAGS) $$(VCOV_DEFS) $$(DEPFLAGS) -Wall -DDEV_RTL_WIDTH=$(1) -DDEV_RTL_HAVE_TRACE=$$(WAVES) \
	    -Isim -I$(call vdir,$(1)) $$(VINC) -c -o $$@ $$<

# The trace-enabled model of the width (WAVES=1).
$(call vtdir,$(1))/vflags: FORCE
	@mkdir -p $$(@D)
	@echo '$$(VFLAGS) $$(VTFLAGS) -GDataBytes=$(1) $$(VXFLAGS) $$(VOPT_TRACE)' | cmp -s - $$@ || \
	    echo '$$(VFLAGS) $$(VTFLAGS) -GDataBytes=$(1) $$(VXFLAGS) $$(VOPT_TRACE)' > $$@

$(call vtdir,$(1))/$(call vtcls,$(1)).mk: $$(RTL_SRCS) $(call vtdir,$(1))/vflags | $$(DEPS_STAMP)
	@mkdir -p $$(@D)
	verilator $$(VFLAGS) $$(VTFLAGS) -GDataBytes=$(1) --prefix $(call vtcls,$(1)) \
	    --Mdir $$(abspath $$(@D)) $$(abspath $$(RTL_SRCS))
	@touch $$@

$(call vtlib,$(1)): $(call vtdir,$(1))/$(call vtcls,$(1)).mk $(call vtdir,$(1))/vflags
	rm -f $(call vtdir,$(1))/*.o $(call vtdir,$(1))/*.a
	$$(MAKE) -s -C $(call vtdir,$(1)) -f $(call vtcls,$(1)).mk OPT_FAST='$$(VOPT_TRACE)' \
	    OPT_SLOW='$$(VOPT_TRACE)' VM_PARALLEL_BUILDS=0 USER_CPPFLAGS='$$(VXFLAGS)' \
	    $(call vtcls,$(1))__ALL.a

$(call vtshim,$(1)): sim/device/dev_rtl.cpp $(call vtlib,$(1))
	@mkdir -p $$(@D)
	$$(CXX) $$(CXXFLAGS) $$(VCOV_DEFS) $$(VT_SAN) $$(DEPFLAGS) -Wall -DDEV_RTL_WIDTH=$(1) -DDEV_RTL_TRACE=1 -Isim \
	    -I$(call vtdir,$(1)) $$(VINC) -c -o $$@ $$<
endef
$(foreach w,$(WIDTHS),$(eval $(call rtl_model,$(w))))
FORCE:
.PHONY: FORCE

# The Verilator runtime is compiled once, apart from the model; its FST
# writer (with GTKWave's fstapi in it) also writes the C model's waveforms
# (sim/obs/obs_fst.c) and reads FST back in the tests.
# COV=1 adds its coverage database (verilated_cov.cpp); the models, their
# shims and the runtime are then all compiled with VM_COVERAGE=1.
VRT_SRCS := verilated.cpp verilated_threads.cpp verilated_fst_c.cpp $(if $(COV),verilated_cov.cpp)
VRT_OBJS := $(addprefix $(BUILD)/vrt/,$(VRT_SRCS:.cpp=.o))
VCOV_DEFS = $(if $(COV),-DVM_COVERAGE=1)
$(BUILD)/vrt/%.o: | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(CXX) $(CXXFLAGS) $(VCOV_DEFS) $(VINC) -c -o $@ $(VROOT)/include/$*.cpp
# Its FST writer is GTKWave's fstapi, whose C relies on more than aligned
# access (shifts of negative values, among others): SAN=1 keeps ASan on it
# and leaves UBSan out (VT_SAN, above, for the code Verilator generates).
$(BUILD)/vrt/verilated_fst_c.o: CXXFLAGS += $(if $(SAN),-fno-sanitize=undefined)

# Lint and synthesis check the engine at every width; lint also at other
# queue counts than the built one (NumQueues 64): the least and a middle one,
# with the functional cover points in (NICTX_COVER, make coverage).
LINT_QUEUES := 64 1 4
lint: | $(DEPS_STAMP)
	@set -e; for q in $(LINT_QUEUES); do for w in $(WIDTHS); do \
	    echo "verilator --lint-only -Wall --assert +define+NICTX_COVER -GDataBytes=$$w -GNumQueues=$$q"; \
	    verilator --lint-only -Wall --assert +define+NICTX_COVER --top-module $(RTL_TOP) -GDataBytes=$$w \
	        -GNumQueues=$$q $(RTL_SRCS); \
	done; done

# The statistics of width W go to $(BUILD)/synth_stat_wW.txt; the summary
# of the last to the terminal.
synth:
	@mkdir -p $(BUILD)
	@set -e; for w in $(WIDTHS); do \
	    echo "yosys: DataBytes=$$w"; \
	    yosys -q -p "read_verilog -sv -DSYNTHESIS $(RTL_SRCS); \
	        hierarchy -check -top $(RTL_TOP) -chparam DataBytes $$w; proc; opt; \
	        tee -q -o $(BUILD)/synth_stat_w$$w.txt stat"; \
	done
	@tail -n 25 $(BUILD)/synth_stat_w$(lastword $(WIDTHS)).txt

# ---------------------------------------------------------------- register map
# One source: rtl/regs/nictx_regs.rdl (SystemRDL; docs/device.md).  `make
# regs` writes REGS_OUT from it with PeakRDL and the exporters in
# scripts/regs/nictx_regmap.py.  They are committed: building and testing need
# no PeakRDL, and `make test` fails when they are stale (scripts/check-regs.sh,
# sha256sum only).  PeakRDL is installed from PyPI into a venv under $(BUILD)
# (scripts/regs/requirements.txt), or PEAKRDL=/path/to/peakrdl uses another.
REGS_RDL  := rtl/regs/nictx_regs.rdl
REGS_CFG  := scripts/regs/peakrdl.toml
REGS_OUT  := rtl/nictx_reg_pkg.sv driver/nictx_regs_gen.h docs/device.md
REGS_VENV := $(BUILD)/peakrdl-venv
PEAKRDL   ?=
PEAKRDL_RUN = $(or $(PEAKRDL),$(REGS_VENV)/bin/peakrdl) --peakrdl-cfg $(REGS_CFG)
REGS_HELP := make regs needs PeakRDL: python3 with venv (Debian: apt-get install \
             python3-venv) and PyPI, or pip install -r scripts/regs/requirements.txt \
             then make regs PEAKRDL=peakrdl

$(REGS_VENV)/.ok: scripts/regs/requirements.txt
	@echo "installing PeakRDL ($<) into $(REGS_VENV)"
	@rm -rf $(REGS_VENV)
	@python3 -m venv $(REGS_VENV) || { echo "$(REGS_HELP)"; exit 2; }
	@$(REGS_VENV)/bin/pip install -q -r $< || { echo "$(REGS_HELP)"; exit 2; }
	@touch $@

regs: $(if $(PEAKRDL),,$(REGS_VENV)/.ok)
	$(PEAKRDL_RUN) nictx-svpkg $(REGS_RDL) -o rtl/nictx_reg_pkg.sv
	$(PEAKRDL_RUN) nictx-cheader $(REGS_RDL) -o driver/nictx_regs_gen.h
	$(PEAKRDL_RUN) nictx-markdown $(REGS_RDL) -o docs/device.md
	@bash scripts/check-regs.sh

regs-check:
	@bash scripts/check-regs.sh

# ---------------------------------------------------------------- C
$(BUILD)/obj/%.o: %.c | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(CC) -std=c11 $(CFLAGS) $(WARN) $(DEPFLAGS) $(INCS) $(INIH_CFLAGS) -c -o $@ $<
# The C model's FST writer is on GTKWave's fstapi, in Verilator's tree.
$(BUILD)/obj/sim/obs/obs_fst.o: INCS += -I$(VROOT)/include/gtkwave

obj = $(addprefix $(BUILD)/obj/,$(1:.c=.o))

# The simulator is sim/ in layers, a folder each, in dependency order
# (docs/architecture.md, The source tree): lib (JSON, strings, coroutines,
# CRC, time), host (CPUs, store buffers, cache lines, memory), pcie (link,
# root complex, TLP queues), device (the port contract and its RTL, C-model
# and lockstep adapters), check (scoreboard and checkers), run (the world
# and its event loop), cli (the command line and reports), and sweep (the
# sweep tool, on lib alone).  Each layer's sources are every .c in its folder.
layer_srcs = $(sort $(wildcard $(addprefix sim/,$(addsuffix /*.c,$(1)))))
# The driver: its transmit queue, written against the kernel layer
# (driver/linux/, docs/own-driver.md; below), the kernel's calls it makes
# (netdev.c, dql.c) and pktgen with its buffers' placement (buf_place.c).
# driver/platform_bitops.c is the plain bitops of the platforms that are
# not the simulator's (tests/common/fake_platform.c, sc/).
DRV_SRCS := driver/netdev.c driver/dql.c driver/pktgen.c driver/buf_place.c driver/linux/kcsan.c

# ---------------------------------------------------------------- kernel layer
# The transmit path is kernel code: compiled freestanding against the
# layer's headers (-nostdinc: a kernel header or call the layer lacks fails
# to build, scripts/kdrv-cc.sh says which), with ThreadSanitizer's
# instrumentation (volatile accesses apart: READ_ONCE / WRITE_ONCE) and
# nictx's own runtime, driver/linux/kcsan.c; libtsan is never linked (no
# -fsanitize=thread at the link).  With SAN=1 it keeps UBSan, not ASan
# (which does not combine with the instrumentation), and with PGO no LTO
# (the link would need the sanitizer).  kapi.c, the layer's own code, is
# compiled the same way without the instrumentation.
# make DRIVER=path/to/my_tx.c: that file is the transmit path in nictx,
# the simulation tests and nictx-vp (the contract: driver/txq.h).
DRIVER    ?= driver/txq.c
comma    := ,
KCC_CLANG := $(shell $(CC) --version 2>/dev/null | grep -qi clang && echo 1)
KTSAN     := -fsanitize=thread $(if $(KCC_CLANG),-mllvm -tsan-distinguish-volatile=1 \
             -mllvm -tsan-instrument-func-entry-exit=0,--param=tsan-distinguish-volatile=1 \
             --param=tsan-instrument-func-entry-exit=0 -fno-tree-loop-distribute-patterns)
KXFLAGS    = $(filter-out -flto=auto,$(subst -fsanitize=address$(comma)undefined,-fsanitize=undefined,$(XFLAGS)))
KINCS      = -nostdinc -isystem $(shell $(CC) -print-file-name=include) -Idriver/linux/include -Idriver
KCFLAGS    = -std=gnu11 -ffreestanding -fno-strict-aliasing $(OPT) -g $(KXFLAGS) $(COVFLAGS) $(WARN) $(DEPFLAGS) \
             $(KINCS)
# The objects: the layer, the project's transmit path, and DRIVER's.
KAPI_OBJ  := $(BUILD)/obj/k/driver/linux/kapi.o
KTXQ_OBJ  := $(BUILD)/obj/k/driver/txq.o
DRV_OBJ   := $(if $(filter driver/txq.c,$(DRIVER)),$(KTXQ_OBJ),$(BUILD)/obj/k/own/$(notdir $(basename $(DRIVER))).o)
$(KAPI_OBJ): driver/linux/kapi.c | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(CC) $(KCFLAGS) -c -o $@ $<
$(BUILD)/obj/k/%.o: %.c scripts/kdrv-cc.sh | $(DEPS_STAMP)
	@mkdir -p $(@D)
	bash scripts/kdrv-cc.sh $@ $< -- $(CC) $(KCFLAGS) $(KTSAN)
ifneq ($(DRV_OBJ),$(KTXQ_OBJ))
$(DRV_OBJ): $(DRIVER) scripts/kdrv-cc.sh | $(DEPS_STAMP)
	@mkdir -p $(@D)
	bash scripts/kdrv-cc.sh $@ $< -- $(CC) $(KCFLAGS) $(KTSAN)
endif
# The transmit path and what it links with: DRIVER's, or the project's
# (the unit tests' and the SystemC platform's: KTXQ).
# (The runtime, driver/linux/kcsan.c, comes with the platform's objects.)
DRV_TXQ_OBJS := $(DRV_OBJ) $(KAPI_OBJ) $(BUILD)/obj/driver/netdev.o $(BUILD)/obj/driver/dql.o
KTXQ_OBJS    := $(KTXQ_OBJ) $(KAPI_OBJ) $(BUILD)/obj/driver/netdev.o $(BUILD)/obj/driver/dql.o
# The device adapters that pick a backend and width (dev_select.c) need
# every width's model: they link with WIDE_MODELS, below.
# (dev_hw.c, the hardware parameters as data, dev_cache.c and dev_area.c,
# the caches and the area, are the core's: the settings check the
# parameters, the report writes the area.)
DEV_CORE     := sim/device/dev_hw.c sim/device/dev_cache.c sim/device/dev_area.c
DEV_ADAPTERS := $(filter-out $(DEV_CORE),$(filter sim/device/dev_%.c,$(call layer_srcs,device)))
SIM_CORE := $(filter-out sim/cli/main.c $(DEV_ADAPTERS),\
                $(call layer_srcs,lib obs host pcie device check run cli)) $(DRV_SRCS)
# obs (traces, waveforms, captures; docs/observability.md) sits after lib:
# the CPUs, the links, the devices and the run tell it what happens.
OBS_SRCS := $(call layer_srcs,obs)
# ... without the FST writer (on Verilator's runtime): for the unit tests.
OBS_CORE := $(filter-out sim/obs/obs_fst.c,$(OBS_SRCS))
# The simulator without a transmit path; nictx (and nictx-vp) link DRIVER's,
# the simulation tests the project's (driver/txq.c).
SIM_BASE := $(call obj,$(SIM_CORE)) $(KAPI_OBJ) $(call vmodel,8) $(VRT_OBJS) $(call vtrace,8)
SIM_OBJS := $(SIM_BASE) $(DRV_OBJ)
SIM_TOBJS := $(SIM_BASE) $(KTXQ_OBJ)
# DRIVER as it was for the last link: nictx links again when it changes.
DRV_STAMP := $(BUILD)/driver-src
$(DRV_STAMP): FORCE
	@mkdir -p $(@D)
	@echo '$(DRIVER)' | cmp -s - $@ || echo '$(DRIVER)' > $@
# The C model of the engine (c-model/, docs/c-model.md): its blocks as
# rtl/nictx_tx_top.sv wires them, and the CRC of the lib layer.
CM_ENGINE := $(sort $(wildcard c-model/*.c)) sim/lib/crc32.c
# The other widths' models and the lookup by width (dev_rtl_ops_width); the
# C model and the lockstep of both (--device); the loader of other hardware
# combinations' models with its cache (DEV_CORE): nictx (--dev-width,
# --device, --hw-*) and the tests that run every width.
WIDE_MODELS := $(foreach w,$(filter-out 8,$(WIDTHS)),$(call vmodel,$(w))) \
               $(call obj,$(DEV_ADAPTERS) $(DEV_CORE) $(CM_ENGINE)) \
               $(foreach w,$(filter-out 8,$(WIDTHS)),$(call vtrace,$(w)))
# libinih (Debian libinih-dev, pkg-config module inih) parses profiles/*.ini.
# Deferred (=), like CMOCKA: pkg-config runs after install-deps.sh has.
INIH_CFLAGS = $(shell pkg-config --cflags inih)
# libpcap (Debian libpcap-dev) writes and reads captures (--pcap-out,
# --pcap-in); zlib is the FST writer's.
LDLIBS    = -lpthread -lm $(shell pkg-config --libs inih) -lpcap -lz $(XFLAGS) $(COVFLAGS)

# nictx sweep: plans, runs (serially, GNU parallel, Slurm) and reports sweeps.
SWEEP_SRCS := $(call layer_srcs,sweep)

# -rdynamic: a model of another hardware combination (build/models/<key>/
# model.so, sim/device/dev_models.c) takes the Verilator runtime from nictx.
$(BUILD)/nictx: $(call obj,sim/cli/main.c $(SWEEP_SRCS)) $(SIM_OBJS) $(WIDE_MODELS) $(DRV_STAMP)
	$(CXX) -rdynamic -o $@ $(filter-out $(DRV_STAMP),$^) $(LDLIBS)

all: $(BUILD)/nictx

# The flagship experiment: burst x protocol x barrier x ordering on the
# default configuration (sweeps/flagship.ini); its report, table and plots
# go to docs/results/flagship, its headline table into README.md.  Points
# done by this same binary are kept (an interrupted run resumes);
# SWEEP_ARGS=--fresh reruns them all.  It runs the fast build (make fast)
# on the C model, each point's first packets checked in lockstep with the
# RTL (nictx sweep's defaults: --device c, --lockstep-packets 2000).
SWEEP_ARGS ?=
run: $(FAST)/nictx
	$(FAST)/nictx sweep sweeps/flagship.ini --out docs/results/flagship $(SWEEP_ARGS)
	@bash scripts/flagship-readme.sh docs/results/flagship/report.md README.md

# The co-design flagship (docs/codesign.md): the sweeps of
# sweeps/codesign-64b.ini and sweeps/codesign-imix.ini at 100G and 25G, each
# point with its area (--area), each sweep's cheapest point at line rate
# (--target) into docs/results/codesign/W-L.target and the table of
# docs/results/codesign/README.md (scripts/codesign-readme.sh).  The plain
# build: the fast one has no RTL assertions, and the points run on the C
# model either way.  The first run synthesizes each hardware combination
# (minutes each; cached in $(BUILD)/area).
CODESIGN := docs/results/codesign
CODESIGN_TARGET := utilization.wire>=0.99
.PHONY: run-codesign
run-codesign: $(BUILD)/nictx
	@mkdir -p $(CODESIGN); set -e; for w in 64b imix; do for l in 100g 25g; do \
	    $(BUILD)/nictx sweep sweeps/codesign-$$w.ini --set line=$$l --name codesign-$$w-$$l \
	        --out $(CODESIGN)/$$w-$$l --area --target '$(CODESIGN_TARGET)' $(SWEEP_ARGS) \
	        > $(CODESIGN)/$$w-$$l.out; \
	    grep '^target ' $(CODESIGN)/$$w-$$l.out > $(CODESIGN)/$$w-$$l.target; \
	    cat $(CODESIGN)/$$w-$$l.target; rm -f $(CODESIGN)/$$w-$$l.out; \
	done; done
	@bash scripts/codesign-readme.sh $(CODESIGN)

# The committed flagship as a regression gate (docs/testing.md): `make run`'s
# binary and plan, every point run again (--fresh) into a scratch directory,
# its figures compared with docs/results/flagship's by `nictx sweep compare`
# (a column only the new run has is not a difference).  COMPARE_ARGS, e.g.
# --tol 1 or --tol 'latency_ns.*=5', passes tolerances.
FLAGSHIP_CHECK := $(BUILD)/flagship-check
COMPARE_ARGS ?=
.PHONY: check-flagship
check-flagship: $(FAST)/nictx
	$(FAST)/nictx sweep sweeps/flagship.ini --out $(FLAGSHIP_CHECK) --fresh --no-plots $(SWEEP_ARGS)
	$(FAST)/nictx sweep compare docs/results/flagship $(FLAGSHIP_CHECK) $(COMPARE_ARGS)

# docs/profiles.md's table of settings: `nictx run --list-keys --markdown`,
# from the settings table (sim/run/settings.c), between its settings:begin
# and settings:end markers; `make test` checks it is current
# (scripts/check-profiles-doc.sh).
profiles-doc: $(BUILD)/nictx
	@NICTX=$(BUILD)/nictx bash scripts/check-profiles-doc.sh --write

# One experiment, its table on stdout.
RUN_ARGS ?= --pkt-size 64 --burst 8 --packets 200000 --pcie gen3x8 --line 10g
run-one: $(BUILD)/nictx
	$(BUILD)/nictx run $(RUN_ARGS)

# ---------------------------------------------------------------- tests
# One cmocka binary per module; each lists the objects it links.
CMOCKA = $(shell pkg-config --libs cmocka)
# The scoreboard and what it is built from.
SB_SRCS      := sim/check/scoreboard.c sim/check/sb_rate.c sim/check/lat_hist.c sim/lib/crc32.c
T_pcie_link  := sim/pcie/pcie_cfg.c sim/pcie/pcie_link.c $(OBS_CORE)
T_scoreboard := $(SB_SRCS)
T_json       := sim/lib/json.c
# (TO_<name>: objects built otherwise, the kernel-layer driver's.)
FAKE_PLAT    := tests/common/fake_platform.c driver/platform_bitops.c driver/linux/kcsan.c
T_txq        := $(FAKE_PLAT)
TO_txq        = $(KTXQ_OBJS)
TO_pktgen     = $(KTXQ_OBJS)
T_pktgen     := driver/pktgen.c driver/buf_place.c $(FAKE_PLAT) $(SB_SRCS)
T_pcie_fc    := sim/pcie/pcie_cfg.c sim/pcie/pcie_link.c $(OBS_CORE)
T_stbuf      := sim/host/stbuf.c
T_memhist    := sim/host/memhist.c
T_coro       := sim/lib/coro.c
T_ownchk     := sim/check/ownchk.c sim/check/ownchk_set.c sim/host/stbuf.c sim/host/host_mem.c
T_dmachk     := sim/check/dmachk.c
T_dql        := driver/dql.c $(FAKE_PLAT)
T_buf_place  := driver/buf_place.c
T_cacheline  := sim/host/cacheline.c
# The settings table and what it needs (sim/run/settings.h): sim_cfg.c's defaults
# and checks read it; its value types parse numbers, enums and fault plans,
# name driver bugs and write JSON.
SETTINGS_SRCS := sim/run/settings.c sim/run/set_types.c sim/run/sim_cfg.c sim/run/inject.c \
                 sim/lib/num.c sim/lib/json.c sim/check/bug_catalog.c sim/host/cpu.c \
                 sim/pcie/pcie_cfg.c driver/buf_place.c sim/device/dev_hw.c $(OBS_CORE)
T_profile    := sim/cli/profile.c $(SETTINGS_SRCS)
T_settings   := $(SETTINGS_SRCS)
# nictx draw: the regression's configurations, checked by nictx run's parser.
T_draw       := sim/cli/draw.c sim/cli/run_args.c sim/cli/options.c sim/cli/profile.c \
                $(SETTINGS_SRCS)
T_inject     := sim/run/inject.c
T_rc         := sim/pcie/rc.c sim/host/host_mem.c sim/pcie/tlp_queue.c sim/pcie/pcie_cfg.c sim/pcie/pcie_link.c \
                $(OBS_CORE)
T_sweep      := sim/sweep/sweep.c sim/sweep/sweep_values.c sim/sweep/sweep_file.c sim/sweep/sweep_series.c sim/lib/strv.c sim/lib/json.c \
                sim/sweep/sweep_point.c sim/sweep/sweep_exec.c sim/lib/json_flat.c
# How the points run: one point, children, ssh hosts, the job log, --transfer, Slurm.
T_sweep_run  := sim/sweep/sweep_point.c sim/sweep/sweep_exec.c sim/sweep/sweep_hosts.c \
                sim/sweep/sweep_joblog.c sim/sweep/sweep_transfer.c sim/sweep/sweep_slurm.c \
                sim/sweep/sweep.c sim/sweep/sweep_values.c sim/lib/strv.c sim/lib/json.c \
                sim/lib/json_flat.c
T_json_flat  := sim/lib/json_flat.c sim/lib/json.c
T_sweep_table := sim/sweep/sweep_table.c sim/sweep/sweep_csv.c sim/lib/json_flat.c sim/lib/json.c sim/sweep/sweep.c sim/sweep/sweep_values.c \
                 sim/lib/strv.c
# nictx sweep compare: results.csv read back, two tables compared.
T_sweep_compare := sim/sweep/sweep_compare.c sim/sweep/sweep_csv.c sim/lib/strv.c sim/lib/json.c
# Reliability (docs/reliability.md): sb_rate keeps memory flat in run length.
T_sb_rate    := sim/check/sb_rate.c
# Queues: the fairness figures.
T_fairness   := sim/run/fairness.c
# The C model's FIFO alone (the lockstep tests run the rest of the model).
T_cm_fifo    := c-model/cm_fifo.c
T_tlp_beat   := sim/device/tlp_beat.c
# Co-design: the hardware parameters as data, the Pareto front and target.
T_codesign   := sim/device/dev_hw.c sim/sweep/sweep_pareto.c sim/sweep/sweep_target.c \
                sim/sweep/sweep_csv.c sim/lib/strv.c

# tests/ by kind, a folder each; tests/<kind>/test_<name>.c (or .cpp) is the
# test <name>, built into $(BUILD)/tests/test_<name>; tests/common holds the
# helpers they share.
#  unit    one module alone, linking the sources its T_<name> lists;
#  engine  the Verilated engine driven through struct device_ops;
#  sim     the whole simulator: host, link and device, at every width, and
#          the C model in lockstep with the RTL over whole runs;
#  cli     the command line as a user meets it (runs $(BUILD)/nictx);
#  rtl     one RTL module alone, in lockstep with its C model (below);
#  sc      the SystemC wrapper and virtual platform.
test_names = $(sort $(patsubst tests/$(1)/test_%,%,$(basename $(wildcard tests/$(1)/test_*.c*))))
UNIT_TESTS   := $(call test_names,unit)
ENGINE_TESTS := $(call test_names,engine)
SIM_TESTS    := $(call test_names,sim)
CLI_TESTS    := $(call test_names,cli)
RTL_UNIT_TESTS := $(call test_names,rtl)
ALL_TESTS    := $(UNIT_TESTS) $(ENGINE_TESTS) $(SIM_TESTS) $(CLI_TESTS)

define unit_test
$(BUILD)/tests/test_$(1): $(call obj,tests/unit/test_$(1).c $(T_$(1))) $(TO_$(1))
	@mkdir -p $$(@D)
	$$(CC) -o $$@ $$^ $$(CMOCKA) $$(LDLIBS)
endef
$(foreach t,$(UNIT_TESTS),$(eval $(call unit_test,$(t))))

# (tests/common/report_capture.c: a run's report as a string, for the tests that read it.)
$(addprefix $(BUILD)/tests/test_,$(SIM_TESTS)): $(BUILD)/tests/test_%: \
        $(BUILD)/obj/tests/sim/test_%.o $(call obj,tests/common/report_capture.c) $(SIM_TOBJS)
	@mkdir -p $(@D)
	$(CXX) -o $@ $^ $(CMOCKA) $(LDLIBS)

# Engine tests link every width's model (test_engine and test_queues run
# each) and the C model (NICTX_DEVICE=c or lockstep runs them on it:
# scripts/lockstep-engine.sh).
$(addprefix $(BUILD)/tests/test_,$(ENGINE_TESTS)): $(BUILD)/tests/test_%: \
        $(BUILD)/obj/tests/engine/test_%.o $(call obj,tests/common/engine_host.c) \
        $(call vmodel,8) $(WIDE_MODELS) $(VRT_OBJS) $(call vtrace,8)
	@mkdir -p $(@D)
	$(CXX) -o $@ $^ $(CMOCKA) $(LDLIBS)
# test_width runs at every width; test_lockstep, the C model beside the RTL;
# test_bound, runs at the widths its bounds need;
# test_observe, the C model's waveform beside the RTL's (read back with
# GTKWave's fstapi); test_calibration, each profile at its own width.
$(BUILD)/tests/test_width $(BUILD)/tests/test_lockstep $(BUILD)/tests/test_observe \
    $(BUILD)/tests/test_calibration $(BUILD)/tests/test_bound: $(WIDE_MODELS)
$(BUILD)/obj/tests/sim/test_observe.o: INCS += -I$(VROOT)/include/gtkwave

# Tests of RTL modules alone, each Verilated with its assertions on into
# $(BUILD)/verilated-<class>.  rtl_unit_model: test $(1) links class $(2),
# module $(3) from sources $(4), with parameters $(5).  RT_<test> lists
# the sources a test verilates (scripts/mutate.py runs the test on their
# mutants), T_<test> the C sources it links (the C model's, c-model/).
define rtl_unit_model
$(VBUILD)/verilated-$(2)/$(2).mk: $(4) | $$(DEPS_STAMP)
	@mkdir -p $$(@D)
	verilator --cc --assert -Wall --top-module $(3) $(5) --prefix $(2) \
	    --Mdir $$(abspath $$(@D)) $$(abspath $(4))
	@touch $$@
$(VBUILD)/verilated-$(2)/$(2)__ALL.a: $(VBUILD)/verilated-$(2)/$(2).mk
	rm -f $$(@D)/*.o $$(@D)/*.a
	$$(MAKE) -s -C $$(@D) -f $(2).mk VM_PARALLEL_BUILDS=0 USER_CPPFLAGS='$$(VXFLAGS)' $(2)__ALL.a
RT_LIBS_$(1) += $(VBUILD)/verilated-$(2)/$(2)__ALL.a
RT_$(1) += $(4)
endef
define rtl_unit_test
$(BUILD)/obj/tests/rtl/test_$(1).o: tests/rtl/test_$(1).cpp $$(RT_LIBS_$(1))
	@mkdir -p $$(@D)
	$$(CXX) $$(CXXFLAGS) $$(WARN) $$(DEPFLAGS) $$(INCS) \
	    $$(foreach l,$$(RT_LIBS_$(1)),-isystem $$(dir $$(l))) \
	    $$(patsubst -I%,-isystem %,$$(VINC)) -c -o $$@ $$<
$(BUILD)/tests/test_$(1): $(BUILD)/obj/tests/rtl/test_$(1).o $$(call obj,$$(T_$(1))) \
        $$(RT_LIBS_$(1)) $$(VRT_OBJS)
	@mkdir -p $$(@D)
	$$(CXX) -o $$@ $$^ $$(CMOCKA) $$(LDLIBS)
endef
# The scheduler (NumQueues 8) in lockstep with the C model's, and directed tests.
$(eval $(call rtl_unit_model,tx_sched,Vnictx_tx_sched,nictx_tx_sched,\
    $(RTL_PKGS) rtl/prim_rr_pick.sv rtl/nictx_tx_sched.sv,-GNumQueues=8))
T_tx_sched := c-model/cm_sched.c
# The MAC at the narrowest and widest beat, in lockstep with the C model's.
T_mac := c-model/cm_mac.c sim/lib/crc32.c
$(foreach w,8 64,$(eval $(call rtl_unit_model,mac,Vnictx_mac_w$(w),nictx_mac,\
    $(RTL_PKGS) rtl/nictx_mac.sv,-GDataBytes=$(w))))
# The payload fetch with the engine's sizes at 8 bytes a word, and with a
# packet FIFO of 8 at 64, in lockstep with the C model's.
T_payload := c-model/cm_payload.c c-model/cm_fifo.c
$(eval $(call rtl_unit_model,payload,Vnictx_payload_w8,nictx_payload_fetch,\
    $(RTL_PKGS) rtl/prim_fifo_sync.sv rtl/nictx_payload_fetch.sv,\
    -GDataBytes=8 -GBufBytes=32768 -GMaxPkts=256))
$(eval $(call rtl_unit_model,payload,Vnictx_payload_w64,nictx_payload_fetch,\
    $(RTL_PKGS) rtl/prim_fifo_sync.sv rtl/nictx_payload_fetch.sv,\
    -GDataBytes=64 -GBufBytes=32768 -GMaxPkts=8))
# The DMA read engine with the engine's 256 tags at 8 bytes a beat, and
# with 32 tags at 64, in lockstep with the C model's.
T_dma_rd := c-model/cm_dma_rd.c c-model/cm_fifo.c
$(eval $(call rtl_unit_model,dma_rd,Vnictx_dma_rd_t256w8,nictx_dma_rd,\
    $(RTL_PKGS) rtl/prim_fifo_sync.sv rtl/nictx_dma_rd.sv,-GNumTags=256 -GDataBytes=8 -GPtrW=15))
$(eval $(call rtl_unit_model,dma_rd,Vnictx_dma_rd_t32w64,nictx_dma_rd,\
    $(RTL_PKGS) rtl/prim_fifo_sync.sv rtl/nictx_dma_rd.sv,-GNumTags=32 -GDataBytes=64 -GPtrW=15))
# The write-combining window at 8 and 64 bytes a beat, in lockstep with
# the C model's.
T_wc := c-model/cm_wc.c
$(foreach w,8 64,$(eval $(call rtl_unit_model,wc,Vnictx_wc_w$(w),nictx_wc,\
    $(RTL_PKGS) rtl/nictx_wc.sv,-GDataBytes=$(w))))
# The completion and interrupt logic at NumQueues 8, in lockstep with the
# C model's (test_completions is the engine's completions, through the whole RTL).
T_cpl := c-model/cm_cpl.c
$(eval $(call rtl_unit_model,cpl,Vnictx_cpl_q8,nictx_cpl,\
    $(RTL_PKGS) rtl/prim_rr_pick.sv rtl/nictx_cpl.sv,-GNumQueues=8))
# The descriptor fetcher with the engine's default 256 slots and 8 reads,
# at 8 bytes a beat with 8 queues and at 64 with one; with 64 slots and 2
# reads at 16 with 8 queues, and 128 slots and 4 reads at 32 with 4; in
# lockstep with the C model's.
T_desc_fetch := c-model/cm_desc_fetch.c
DF_RTL := $(RTL_PKGS) rtl/prim_fifo_sync.sv rtl/prim_rr_pick.sv rtl/nictx_desc_fetch.sv
$(eval $(call rtl_unit_model,desc_fetch,Vnictx_desc_fetch_w8q8,nictx_desc_fetch,$(DF_RTL),\
    -GBufDescs=256 -GMaxReads=8 -GDataBytes=8 -GNumQueues=8))
$(eval $(call rtl_unit_model,desc_fetch,Vnictx_desc_fetch_w64q1,nictx_desc_fetch,$(DF_RTL),\
    -GBufDescs=256 -GMaxReads=8 -GDataBytes=64 -GNumQueues=1))
$(eval $(call rtl_unit_model,desc_fetch,Vnictx_desc_fetch_w16q8b64r2,nictx_desc_fetch,$(DF_RTL),\
    -GBufDescs=64 -GMaxReads=2 -GDataBytes=16 -GNumQueues=8))
$(eval $(call rtl_unit_model,desc_fetch,Vnictx_desc_fetch_w32q4b128r4,nictx_desc_fetch,$(DF_RTL),\
    -GBufDescs=128 -GMaxReads=4 -GDataBytes=32 -GNumQueues=4))
# The register block with the engine's DescFetchMaxHw, DescReads and
# NumTags, at 8 queues and at one, in lockstep with the C model's.
T_regs := c-model/cm_regs.c
$(foreach q,8 1,$(eval $(call rtl_unit_model,regs,Vnictx_regs_q$(q),nictx_regs,\
    rtl/nictx_pkg.sv rtl/nictx_reg_pkg.sv rtl/nictx_regs.sv,\
    -GDescFetchMaxHw=64 -GDescReadsHw=8 -GNumTags=256 -GNumQueues=$(q))))
$(foreach t,$(RTL_UNIT_TESTS),$(eval $(call rtl_unit_test,$(t))))
ALL_TESTS      += $(RTL_UNIT_TESTS)

# The command line as a user meets it: runs $(BUILD)/nictx (NICTX).
$(addprefix $(BUILD)/tests/test_,$(CLI_TESTS)): $(BUILD)/tests/test_%: \
        $(BUILD)/obj/tests/cli/test_%.o $(call obj,tests/common/cli_harness.c) $(BUILD)/nictx
	@mkdir -p $(@D)
	$(CC) -o $@ $(BUILD)/obj/tests/cli/test_$*.o $(call obj,tests/common/cli_harness.c) $(CMOCKA) $(LDLIBS)

# The kernel layer's tests (tests/cli/test_own_driver.c, docs/own-driver.md):
# nictx with the example port (driver/examples/ixgbe_tx.c), with the port
# less the smp_mb() its comment marks (the held-out bug), and with the
# project's driver less its doorbell wmb() (a plain-store ordering bug):
# each change one line, made by sed, the file built as DRIVER is.  And the
# command that builds a driver file, for the test that a driver using an
# API the layer lacks fails to build with a message (tests/drivers/).
OWN_BINS := $(addprefix $(BUILD)/tests/nictx-,ixgbe ixgbe-nowakemb ixgbe-nowakemb-ntu txq-nowmb)
$(BUILD)/gen/ixgbe_tx_nowakemb.c: driver/examples/ixgbe_tx.c
	@mkdir -p $(@D)
	sed '/the held-out bug deletes this line/d' $< > $@.tmp
	@! cmp -s $< $@.tmp || { echo "$<: no line marked for the held-out bug" >&2; exit 1; }
	@mv $@.tmp $@
# The same bug with ixgbe_desc_unused() reading next_to_use first: the
# re-check is both loads, in either order (sim/check/stopchk.h).
$(BUILD)/gen/ixgbe_tx_nowakemb_ntu.c: $(BUILD)/gen/ixgbe_tx_nowakemb.c
	sed '/u16 ntc = ring->next_to_clean;/{h;d};/u16 ntu = ring->next_to_use;/G' $< > $@.tmp
	@! cmp -s $< $@.tmp || { echo "$<: ixgbe_desc_unused() not found" >&2; exit 1; }
	@mv $@.tmp $@
$(BUILD)/gen/txq_nowmb.c: driver/txq.c
	@mkdir -p $(@D)
	sed '/builds a driver without this line/d' $< > $@.tmp
	@! cmp -s $< $@.tmp || { echo "$<: no line marked for test_own_driver" >&2; exit 1; }
	@mv $@.tmp $@
own_bin = $(call obj,sim/cli/main.c $(SWEEP_SRCS)) $(SIM_BASE) $(WIDE_MODELS) $(BUILD)/obj/k/$(1).o
$(BUILD)/tests/nictx-ixgbe: $(call own_bin,driver/examples/ixgbe_tx)
$(BUILD)/tests/nictx-ixgbe-nowakemb: $(call own_bin,$(BUILD)/gen/ixgbe_tx_nowakemb)
$(BUILD)/tests/nictx-ixgbe-nowakemb-ntu: $(call own_bin,$(BUILD)/gen/ixgbe_tx_nowakemb_ntu)
$(BUILD)/tests/nictx-txq-nowmb: $(call own_bin,$(BUILD)/gen/txq_nowmb)
$(OWN_BINS):
	@mkdir -p $(@D)
	$(CXX) -o $@ $^ $(LDLIBS)
KDRV_CMD := $(BUILD)/kdrv-cmd
$(KDRV_CMD): FORCE
	@mkdir -p $(@D)
	@echo '$(CC) $(KCFLAGS) $(KTSAN)' | cmp -s - $@ || echo '$(CC) $(KCFLAGS) $(KTSAN)' > $@
$(BUILD)/tests/test_own_driver: | $(OWN_BINS) $(KDRV_CMD)
# ---------------------------------------------------------------- SystemC
# sc/: the engine as a SystemC TLM-2.0 module (nictx_sc), the same driver on
# TLM calls (platform_tlm) and an example virtual platform, nictx-vp
# (docs/systemc.md).  Debian's libsystemc-dev 2.3.4 (pkg-config systemc) was
# built for C++17.  The driver's platform is bound at link time, so these
# binaries link platform_tlm instead of the native sim/run/platform_sim.c.
SC_CFLAGS = $(shell pkg-config --cflags systemc 2>/dev/null)
SC_LIBS   = $(or $(shell pkg-config --libs systemc 2>/dev/null),-lsystemc)
SC_CXX    = $(CXX) -std=c++17 $(CXXFLAGS) $(WARN) $(DEPFLAGS) $(INCS) -Isc $(SC_CFLAGS)
$(BUILD)/obj/sc/%.o: sc/%.cpp | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(SC_CXX) -c -o $@ $<
$(BUILD)/obj/tests/sc/%.o: tests/sc/%.cpp | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(SC_CXX) -c -o $@ $<
SC_OBJS := $(addprefix $(BUILD)/obj/sc/,nictx_sc.o platform_tlm.o vp.o) \
           $(call obj,$(SETTINGS_SRCS) sim/pcie/pcie_link.c sim/pcie/tlp_queue.c sim/device/tlp_beat.c $(SB_SRCS) \
             driver/pktgen.c driver/platform_bitops.c driver/linux/kcsan.c) $(DRV_TXQ_OBJS) \
           $(call vmodel,8) $(WIDE_MODELS) $(VRT_OBJS) $(call vtrace,8)
$(BUILD)/nictx-vp: $(BUILD)/obj/sc/vp_main.o $(SC_OBJS) $(DRV_STAMP)
	$(CXX) -o $@ $(filter-out $(DRV_STAMP),$^) $(SC_LIBS) $(LDLIBS)
all: $(BUILD)/nictx-vp

# docs/systemc.md's example, verbatim: built and run by test_systemc.
$(BUILD)/nictx-sc-example: $(BUILD)/obj/sc/example_instantiate.o $(SC_OBJS)
	$(CXX) -o $@ $^ $(SC_LIBS) $(LDLIBS)

# The VP against the native harness (runs $(BUILD)/nictx), BAR0 and DMA
# error responses, the example.
$(BUILD)/tests/test_systemc: $(BUILD)/obj/tests/sc/test_systemc.o \
        $(call obj,tests/common/cli_harness.c) $(SC_OBJS)
	@mkdir -p $(@D)
	$(CXX) -o $@ $^ $(CMOCKA) $(SC_LIBS) $(LDLIBS)
ALL_TESTS += systemc
$(BUILD)/tests/test_systemc: | $(BUILD)/nictx $(BUILD)/nictx-sc-example

TEST_BINS := $(addprefix $(BUILD)/tests/test_,$(ALL_TESTS))
# scripts/check-regs.sh: the register map's generated files are current;
# scripts/check-spdx.sh: every source file carries the license line;
# scripts/check-layers.sh: sim/'s folders include in layer order;
# scripts/check-profiles-doc.sh: docs/profiles.md's settings table is current;
# scripts/check-junit.sh: run-tests.sh's JUnit XML (one file per binary and
# check, in $(BUILD)/junit) is well-formed and exact;
# scripts/check-fast.sh: the fast build (below) gives the same results;
# scripts/check-mutate-equivalent.sh: the mutants judged equivalent still
# name lines of the tree.
# scripts/doc-check.sh with DOC_CHECK=fast: the docs' fast examples run as
# shown and print what the docs show; every path the docs name exists
# (make doc-check, below).
# run-tests.sh runs RUN_TESTS_JOBS of them at once (default: the CPUs).
# tests/sweep/test-ssh.sh: nictx sweep --hosts against sshd daemons it
# starts on 127.0.0.1 (a dead, a silent and a host without this checkout;
# --transfer); about 30 s; it skips, saying why, only where sshd cannot
# start.
test: $(TEST_BINS) $(BUILD)/nictx $(BUILD)/nictx-vp $(if $(SAN),,$(FAST)/nictx)
	@SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1 NICTX=$(BUILD)/nictx NICTX_FAST=$(FAST)/nictx \
	    DOC_CHECK=fast DOC_CHECK_BUILD=$(BUILD) JUNIT_DIR=$(BUILD)/junit \
	    bash scripts/run-tests.sh $(TEST_BINS) $(if $(SAN),,scripts/lockstep-engine.sh) \
	    scripts/check-regs.sh scripts/check-spdx.sh scripts/check-mutate-equivalent.sh scripts/check-layers.sh \
	    scripts/check-profiles-doc.sh scripts/check-junit.sh \
	    $(if $(SAN),,scripts/check-fast.sh scripts/doc-check.sh tests/sweep/test-ssh.sh)

# make test-slurm: nictx sweep --emit-slurm against a one-node Slurm 22.05
# that tests/sweep/test-slurm.sh starts (munged, slurmctld, slurmd, as
# root, in a temporary directory) and stops; about 20 s.  Its packages
# (slurm-wlm, munge) are installed here, not by `make test`'s deps.  It
# skips, saying why, where the daemons cannot start.
.PHONY: test-slurm
test-slurm: $(BUILD)/nictx
	@bash scripts/install-deps.sh --slurm
	@NICTX=$(BUILD)/nictx bash tests/sweep/test-slurm.sh

# make test-codesign: the hardware parameters end to end
# (tests/codesign/test-codesign.sh): one model build shared by two processes,
# lockstep at two other combinations, the refusal of a cap above the
# hardware, and the area at two tag counts (docs/codesign.md).  Each new
# model is a Verilator build and each area a Yosys synthesis: several
# minutes in all, so not part of `make test`.
.PHONY: test-codesign area
test-codesign: $(BUILD)/nictx $(BUILD)/tests/test_codesign
	@$(BUILD)/tests/test_codesign
	@NICTX=$(BUILD)/nictx bash tests/codesign/test-codesign.sh

# make area [AREA_ARGS='--hw-tags 32 ...']: the engine's area at the
# combination the options give (nictx area; Yosys 0.23, cached in
# $(BUILD)/area by key; docs/codesign.md).
AREA_ARGS ?=
area: $(BUILD)/nictx
	$(BUILD)/nictx area $(AREA_ARGS)

# make fast: the nictx for sweeps and benchmarks, in $(BUILD)-fast: the
# engine without its assertions, -O3, GCC profile feedback from the runs in
# scripts/pgo-train.txt and link-time optimization on every object
# (scripts/pgo-build.sh; why it is faster: docs/architecture.md,
# Simulation speed).  Built again, whole, when
# a source changes.
FAST_SRCS := $(wildcard sim/*/*.c sim/*/*.h sim/*/*.cpp driver/*.c driver/*.h c-model/*.c c-model/*.h) \
             $(wildcard driver/linux/*.c driver/linux/*.h driver/linux/include/*/*.h) scripts/kdrv-cc.sh \
             $(RTL_SRCS) \
             scripts/pgo-build.sh scripts/pgo-train.txt Makefile
.PHONY: fast fast-assert
fast: $(FAST)/nictx
$(FAST)/nictx: $(FAST_SRCS)
	+@MAKE='$(MAKE)' FAST_ASSERT=0 bash scripts/pgo-build.sh $(FAST)
# make fast-assert: the same with the engine's assertions on, in
# $(BUILD)-fast-assert (for make bench's assertions-on figure).
fast-assert: $(FAST_A)/nictx
$(FAST_A)/nictx: $(FAST_SRCS)
	+@MAKE='$(MAKE)' FAST_ASSERT=1 bash scripts/pgo-build.sh $(FAST_A)

# The headline figures come with the assertions on and off, the latter from
# a build of its own (RTL_ASSERT=0) in $(BUILD)-noassert, and from the fast
# builds (assertions off, and on).
bench: $(BUILD)/nictx $(BUILD)/nictx-vp $(FAST)/nictx $(FAST_A)/nictx
	$(MAKE) BUILD=$(BUILD)-noassert RTL_ASSERT=0 WAVES=0 $(BUILD)-noassert/nictx
	@bash scripts/bench.sh $(BUILD)/nictx $(BUILD)-noassert/nictx $(BUILD)/nictx-vp $(FAST)/nictx \
	    $(FAST_A)/nictx

# docs/results-ownership.md: protocol x barrier x burst x ordering, measured.
results-ownership: $(BUILD)/nictx
	@bash scripts/results-ownership.sh $(BUILD)/nictx docs/results-ownership.md

# Fuzzing (mk/fuzz.mk, docs/reliability.md): a short fixed-seed run is part
# of `make test` (not of SAN=1 test: the fuzz targets carry the sanitizers).
include mk/fuzz.mk
test: $(if $(SAN),,fuzz-smoke)

# The soak (scripts/soak.sh, docs/reliability.md): 100 M packets across a mix
# of configurations, scoreboard on, memory flat; not part of `make test`.
# SOAK_SCALE=0.01 for a quick look, SOAK_J runs at once (2).
.PHONY: soak
soak: $(BUILD)/nictx
	@bash scripts/soak.sh $(BUILD)/nictx $(BUILD)/soak

# The randomized regression (docs/testing.md, Randomized regression): SEEDS
# drawn configurations from seed SEED0, two at a time.  240 seeds: about 10
# minutes on 2 cores (seeds 1..170 took 420 s of wall time at 2 jobs: 2.5 s a
# seed; docs/testing.md).
# REGRESS_HW: the hardware combinations a quarter of the seeds run (nictx
# draw --hw), each a model built once into build/models (minutes each, the
# first time).
SEEDS ?= 240
SEED0 ?= 1
REGRESS_HW ?= 2
.PHONY: regress
regress: $(BUILD)/nictx
	bash scripts/regress.sh --bin $(BUILD)/nictx --seeds $(SEEDS) --seed0 $(SEED0) \
	    --hw $(REGRESS_HW) --out $(BUILD)/regress

# Coverage (scripts/coverage.sh, docs/coverage.md): COV=1 builds into
# build-cov/ (the RTL with Verilator's line, toggle and cover point
# coverage, the C code with gcov), runs COV_TESTS (the unit, engine and
# lockstep tests: the whole of make test is not run, it would take over an
# hour under coverage) and COV_SEEDS seeds of the regression, and writes
# build-cov/coverage/summary.txt and an HTML report (lcov, installed when
# missing).
COV_SEEDS ?= 20
COV_TESTS ?= $(UNIT_TESTS) $(ENGINE_TESTS) lockstep cover
.PHONY: coverage
coverage:
	@bash scripts/coverage.sh --build build-cov --seeds $(COV_SEEDS) --tests "$(COV_TESTS)"

# Mutation testing (docs/testing.md): mutants of every source folder (rtl/,
# c-model/, driver/ and its folders, each folder of sim/), a share of the
# sample each, built and tested in a copy of the tree under $(BUILD)/mutate;
# prints the score, overall and per folder, and the survivors.  Not part of
# `make test`.  MUTATE_ARGS: --sample N, --per-folder K, --seed S,
# --files a.c,b.sv, --list, --no-san (scripts/mutate.py --help).
MUTATE_ARGS ?=
.PHONY: mutate
mutate:
	@command -v python3 >/dev/null || { echo "make mutate needs python3 (apt-get install python3)"; exit 2; }
	python3 scripts/mutate.py --work $(BUILD)/mutate $(MUTATE_ARGS)

clean:
	rm -rf $(BUILD) $(BUILD)-noassert $(FAST) $(FAST_A)

-include $(shell find $(BUILD)/obj -name '*.d' 2>/dev/null)

# ---------------------------------------------------------------- docs
# Doc examples (scripts/doc-check.sh; the marker syntax and the comparison
# rules: docs/testing.md, Doc examples).  Every command block of README.md
# and docs/ marked runnable runs as shown, from a scratch directory that
# sees the checkout; what it prints is compared with the output the page
# shows; every path a page names must exist.  DOC_CHECK=fast runs only the
# blocks marked fast (about half a minute; part of make test); the whole set
# takes several minutes (the flagship sweep among them).
DOC_CHECK ?=
.PHONY: doc-check
doc-check: $(BUILD)/nictx $(BUILD)/nictx-vp $(OWN_BINS) $(KDRV_CMD)
	@SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1 DOC_CHECK=$(or $(DOC_CHECK),full) DOC_CHECK_BUILD=$(BUILD) \
	    bash scripts/doc-check.sh
# docs/observability.md's pictures: a doorbell stalled by weak ordering as
# a timeline (gnuplot) and as a waveform (GTKWave under Xvfb, installed by
# the script when missing: only this target needs them).
.PHONY: observe-pictures
observe-pictures: $(BUILD)/nictx
	@bash scripts/observe-pictures.sh $(BUILD)/nictx
# The engine's block diagram in docs/device.md (Theory of operation), drawn
# from the instances and connections of rtl/nictx_tx_top.sv with graphviz's
# dot (scripts/engine-diagram.sh).  The SVG is committed: nothing else needs
# graphviz.
.PHONY: diagram
diagram:
	@bash scripts/engine-diagram.sh rtl/nictx_tx_top.sv docs/img/engine.svg
