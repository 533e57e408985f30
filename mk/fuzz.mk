# SPDX-License-Identifier: Apache-2.0
# mk/fuzz.mk - libFuzzer targets (included by the Makefile; docs/reliability.md).
#
#   fuzz_cli  `nictx run` option parsing, --set and profiles (tests/fuzz/fuzz_cli.c)
#   fuzz_tlp  the h2d TLP stream into the Verilated engine, assertions on
#             (tests/fuzz/fuzz_tlp.c, fz_host.c)
#
# Built with clang (Debian packages clang and libclang-rt-dev, which
# scripts/install-deps.sh installs) in $(FUZZ_DIR), with ASan and UBSan.
#   make fuzz-smoke           each target over its seed corpus, then FUZZ_RUNS
#                             more inputs from -seed=1 (20x for fuzz_cli; part
#                             of `make test`)
#   make fuzz FUZZ_S=600      each target FUZZ_S seconds; new inputs go to
#                             $(FUZZ_DIR)/corpus/<target>, crashes to
#                             $(FUZZ_DIR)/crash-*; tests/corpus/<target> is the
#                             committed seed corpus, read but never written
#   make fuzz-findings        the known RTL findings' reproducers, each with its
#                             spare bit clear: FIXED or still failing

FUZZ_CC    ?= clang
FUZZ_CXX   ?= clang++
FUZZ_DIR   := $(BUILD)/fuzz
FUZZ_S     ?= 60
FUZZ_RUNS  ?= 500
FUZZ_SAN   := -fsanitize=address,undefined -fsanitize=float-cast-overflow \
              -fno-sanitize-recover=all -fno-omit-frame-pointer
FUZZ_FLAGS := -g -O1 -fsanitize=fuzzer-no-link $(FUZZ_SAN)
FUZZ_LINK  := -fsanitize=fuzzer $(FUZZ_SAN)
FUZZ_TARGETS := cli tlp
.PHONY: fuzz fuzz-smoke fuzz-build

# clang and libFuzzer, or a clear message.
$(FUZZ_DIR)/.clang-ok: | $(DEPS_STAMP)
	@mkdir -p $(@D)
	@printf 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { (void)d; return (int)n * 0; }\n' \
	    > $(@D)/probe.c
	@$(FUZZ_CC) -fsanitize=fuzzer -o $(@D)/probe $(@D)/probe.c 2>/dev/null || { \
	    echo "make: the fuzz targets need clang with libFuzzer: apt-get install clang" \
	         "libclang-rt-dev (scripts/install-deps.sh does it)" >&2; exit 1; }
	@touch $@

# ---- objects: C with clang, the model and its runtime with clang++
fobj = $(addprefix $(FUZZ_DIR)/obj/,$(1:.c=.o))

$(FUZZ_DIR)/obj/%.o: %.c | $(FUZZ_DIR)/.clang-ok
	@mkdir -p $(@D)
	$(FUZZ_CC) -std=c11 $(FUZZ_FLAGS) $(WARN) $(DEPFLAGS) $(INCS) -Itests/fuzz $(INIH_CFLAGS) \
	    $(FUZZ_DEFS) -c -o $@ $<

# main() becomes nictx_main, which fuzz_cli calls.
$(FUZZ_DIR)/obj/sim/cli/main.o: FUZZ_DEFS := -Dmain=nictx_main
# FUZZ_SPARE=0x..: the known RTL findings fuzz_tlp spares, one bit each
# (tests/fuzz/fuzz_tlp.c); a clear bit sends what trips it.  Use a BUILD of
# its own: the flag is not tracked.
FUZZ_SPARE ?= 0x00
$(FUZZ_DIR)/obj/tests/fuzz/fuzz_tlp.o: FUZZ_DEFS := -DFZ_SPARE_KNOWN=$(FUZZ_SPARE)

FUZZ_VDIR := $(FUZZ_DIR)/verilated
# The default (8-byte) model only: fz_host.c drives it.
FUZZ_VCLS := $(call vcls,8)
FUZZ_VLIB := $(FUZZ_VDIR)/$(FUZZ_VCLS)__ALL.a
$(FUZZ_VDIR)/$(FUZZ_VCLS).mk: $(RTL_SRCS) | $(FUZZ_DIR)/.clang-ok
	@mkdir -p $(FUZZ_VDIR)
	verilator --cc --assert -Wall -O3 --top-module $(RTL_TOP) -GDataBytes=8 --prefix $(FUZZ_VCLS) \
	    --Mdir $(abspath $(FUZZ_VDIR)) $(abspath $(RTL_SRCS))

$(FUZZ_VLIB): $(FUZZ_VDIR)/$(FUZZ_VCLS).mk
	$(MAKE) -s -C $(FUZZ_VDIR) -f $(FUZZ_VCLS).mk CXX=$(FUZZ_CXX) OPT_FAST=-O1 OPT_SLOW=-O1 \
	    OPT_GLOBAL=-O1 USER_CPPFLAGS='$(FUZZ_FLAGS) -Wno-unknown-warning-option' $(FUZZ_VCLS)__ALL.a

$(FUZZ_DIR)/vrt/%.o: | $(FUZZ_DIR)/.clang-ok
	@mkdir -p $(@D)
	$(FUZZ_CXX) $(FUZZ_FLAGS) $(VINC) -c -o $@ $(VROOT)/include/$*.cpp

$(FUZZ_DIR)/obj/sim/device/dev_rtl.o: sim/device/dev_rtl.cpp $(FUZZ_VLIB)
	@mkdir -p $(@D)
	$(FUZZ_CXX) $(FUZZ_FLAGS) $(DEPFLAGS) -Wall -DDEV_RTL_WIDTH=8 -DDEV_RTL_HAVE_TRACE=0 -Isim \
	    -I$(FUZZ_VDIR) $(VINC) -c -o $@ $<

# The kernel layer (driver/linux/, docs/own-driver.md) and the transmit
# path written against it, as the Makefile builds them (KCFLAGS, KTSAN), with
# clang's ThreadSanitizer instrumentation, whose runtime is nictx's
# (driver/linux/kcsan.c, in SIM_CORE): UBSan, not ASan, which does not mix
# with it.
FUZZ_KFLAGS := -std=gnu11 -ffreestanding -fno-strict-aliasing -g -O1 -fsanitize=undefined \
               -fno-sanitize-recover=all $(WARN) $(DEPFLAGS) -nostdinc \
               -isystem $(shell $(FUZZ_CC) -print-file-name=include 2>/dev/null) \
               -Idriver/linux/include -Idriver
FUZZ_KOBJS  := $(FUZZ_DIR)/obj/k/driver/linux/kapi.o $(FUZZ_DIR)/obj/k/driver/txq.o
$(FUZZ_DIR)/obj/k/driver/linux/kapi.o: driver/linux/kapi.c | $(FUZZ_DIR)/.clang-ok
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_KFLAGS) -c -o $@ $<
$(FUZZ_DIR)/obj/k/driver/txq.o: driver/txq.c scripts/kdrv-cc.sh | $(FUZZ_DIR)/.clang-ok
	@mkdir -p $(@D)
	bash scripts/kdrv-cc.sh $@ $< -- $(FUZZ_CC) $(FUZZ_KFLAGS) -fsanitize=thread \
	    -mllvm -tsan-distinguish-volatile=1 -mllvm -tsan-instrument-func-entry-exit=0

# ---- the targets
$(FUZZ_DIR)/fuzz_cli: $(call fobj,tests/fuzz/fuzz_cli.c sim/cli/main.c $(SWEEP_SRCS) \
                      $(filter-out sim/obs/obs_fst.c,$(SIM_CORE))) $(FUZZ_KOBJS)
	$(FUZZ_CXX) $(FUZZ_LINK) -o $@ $^ -lpthread -lm $(shell pkg-config --libs inih) -lpcap

$(FUZZ_DIR)/fuzz_tlp: $(call fobj,tests/fuzz/fuzz_tlp.c tests/fuzz/fz_host.c) \
                      $(FUZZ_DIR)/obj/sim/device/dev_rtl.o $(FUZZ_VLIB) \
                      $(addprefix $(FUZZ_DIR)/vrt/,$(VRT_SRCS:.cpp=.o))
	$(FUZZ_CXX) $(FUZZ_LINK) -o $@ $^ -lpthread -latomic -lm -lz

FUZZ_BINS := $(addprefix $(FUZZ_DIR)/fuzz_,$(FUZZ_TARGETS))
fuzz-build: $(FUZZ_BINS)

# A short, repeatable run: the seed corpus, then FUZZ_RUNS inputs from seed 1.
fuzz-smoke: $(FUZZ_BINS)
	@bash scripts/fuzz-run.sh smoke "$(FUZZ_DIR)" "$(FUZZ_RUNS)" $(FUZZ_TARGETS)

# Long runs: FUZZ_S seconds per target, the corpus kept in $(FUZZ_DIR)/corpus.
fuzz: $(FUZZ_BINS)
	@bash scripts/fuzz-run.sh long "$(FUZZ_DIR)" "$(FUZZ_S)" $(FUZZ_TARGETS)

# The known RTL findings (docs/reliability.md): each reproducer in
# tests/corpus/tlp/finding-NAME, run by fuzz_tlp built with its spare bit
# clear; FIXED when it passes.  Not part of `make test`.
FUZZ_FINDINGS := reg-read-16:0x3e wc-long-write:0x3d reset-mid-wc:0x2b ring-size-disabled:0x37 \
                 proto-disabled:0x37 cfg-while-reset-pending:0x37 late-cpl-tag-reuse:0x0f \
                 reset-cuts-frame:0x1f
FUZZ_MASKS := $(sort $(foreach f,$(FUZZ_FINDINGS),$(lastword $(subst :, ,$(f)))))
.PHONY: fuzz-findings
$(FUZZ_DIR)/spare-%/fuzz_tlp.o: tests/fuzz/fuzz_tlp.c | $(FUZZ_DIR)/.clang-ok
	@mkdir -p $(@D)
	$(FUZZ_CC) -std=c11 $(FUZZ_FLAGS) $(WARN) $(INCS) -Itests/fuzz -DFZ_SPARE_KNOWN=$* -c -o $@ $<
$(FUZZ_DIR)/spare-%/fuzz_tlp: $(FUZZ_DIR)/spare-%/fuzz_tlp.o $(call fobj,tests/fuzz/fz_host.c) \
                              $(FUZZ_DIR)/obj/sim/device/dev_rtl.o $(FUZZ_VLIB) \
                              $(addprefix $(FUZZ_DIR)/vrt/,$(VRT_SRCS:.cpp=.o))
	$(FUZZ_CXX) $(FUZZ_LINK) -o $@ $^ -lpthread -latomic -lm -lz
fuzz-findings: $(foreach m,$(FUZZ_MASKS),$(FUZZ_DIR)/spare-$(m)/fuzz_tlp)
	@for f in $(FUZZ_FINDINGS); do \
	    n=$${f%%:*}; m=$${f##*:}; \
	    if $(FUZZ_DIR)/spare-$$m/fuzz_tlp tests/corpus/tlp/finding-$$n >$(FUZZ_DIR)/finding-$$n.log 2>&1; \
	    then echo "finding-$$n: FIXED (passes with spare mask $$m)"; \
	    else echo "finding-$$n: still fails (spare mask $$m): $$(grep -m1 -E '^fuzz_tlp:|Assertion' \
	        $(FUZZ_DIR)/finding-$$n.log | cut -c1-120)"; fi; \
	done

-include $(shell find $(FUZZ_DIR)/obj -name '*.d' 2>/dev/null)
