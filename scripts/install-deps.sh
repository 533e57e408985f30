#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# install-deps.sh [--slurm] - install what nictx needs on Debian 12, and
# nothing else.
#
# Checks each tool or library; installs the missing Debian packages with
# apt-get when it can (root, or password-less sudo).  Otherwise it stops
# with the exact command to run.  Exit 0 when everything is present.
# --slurm: only what `make test-slurm` needs (Slurm and munge), which
# nothing else installs.
set -euo pipefail

# One install at a time: `make -j` may run this for build/ and build-fast/
# together, and two apt-gets would race for apt's lock.  The second waits,
# then finds what the first installed.
if command -v flock >/dev/null 2>&1; then
    exec 9>"${TMPDIR:-/tmp}/nictx-install-deps.$(id -u).lock"
    flock 9
fi

need=()
have_cmd() { command -v "$1" >/dev/null 2>&1; }
have_pc()  { have_cmd pkg-config && pkg-config --exists "$1" 2>/dev/null; }

if [ "${1:-}" = --slurm ]; then
    # tests/sweep/test-slurm.sh: slurmctld, slurmd and the client commands
    # (slurm-wlm), munged (munge).
    have_cmd slurmctld && have_cmd slurmd && have_cmd sbatch || need+=(slurm-wlm)
    have_cmd munged && have_cmd munge || need+=(munge)
else
    have_cmd g++        || need+=(g++)
    have_cmd pkg-config || need+=(pkg-config)
    have_cmd verilator  || need+=(verilator)
    have_pc cmocka      || need+=(libcmocka-dev)
    have_pc inih        || need+=(libinih-dev)   # profiles/*.ini parser (Debian 12: version 55)
    # --pcap-out and --pcap-in (docs/observability.md); zlib for the FST writer.
    have_pc libpcap     || need+=(libpcap-dev)
    have_pc zlib        || need+=(zlib1g-dev)
    # sc/ (the SystemC TLM-2.0 model and virtual platform): SystemC 2.3.4, C++17.
    have_pc systemc || [ -f /usr/include/systemc.h ] || need+=(libsystemc-dev)
    # nictx sweep: GNU parallel runs the points (not moreutils' parallel), gnuplot plots them.
    parallel --version 2>/dev/null | grep 'GNU parallel' >/dev/null || need+=(parallel)
    have_cmd gnuplot    || need+=(gnuplot-nox)
    # Fuzzing (mk/fuzz.mk, in `make test`): clang and its libFuzzer runtime;
    # the soak's peak RSS: GNU time.
    fuzzer_ok() {
        printf 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { (void)d; return (int)n * 0; }\n' |
            clang -x c -fsanitize=fuzzer -o /dev/null - >/dev/null 2>&1
    }
    have_cmd clang      || need+=(clang)
    have_cmd clang && ! fuzzer_ok && need+=(libclang-rt-dev)
    have_cmd clang      || need+=(libclang-rt-dev)
    [ -x /usr/bin/time ] || need+=(time)
    # make test's JUnit check (scripts/check-junit.sh): xmllint.
    have_cmd xmllint    || need+=(libxml2-utils)
    # scripts/run-tests.sh: stdbuf (coreutils, essential on Debian; named for
    # other systems).
    have_cmd stdbuf     || need+=(coreutils)
    # nictx sweep --hosts: ssh (and rsync for --transfer); its test
    # (tests/sweep/test-ssh.sh, in `make test`) starts sshd daemons on
    # 127.0.0.1.  Debian starts the package's own sshd where it can.
    have_cmd ssh        || need+=(openssh-client)
    have_cmd sshd || [ -x /usr/sbin/sshd ] || need+=(openssh-server)
    have_cmd rsync      || need+=(rsync)
fi

if [ ${#need[@]} -eq 0 ]; then
    exit 0
fi

echo "nictx: installing missing packages: ${need[*]}" >&2
if [ "$(id -u)" -eq 0 ]; then
    SUDO=()
elif have_cmd sudo && sudo -n true 2>/dev/null; then
    SUDO=(sudo -n)
else
    echo "nictx: cannot install packages without root." >&2
    echo "nictx: run:  sudo apt-get update && sudo apt-get install -y ${need[*]}" >&2
    exit 1
fi

export DEBIAN_FRONTEND=noninteractive
if ! "${SUDO[@]}" apt-get -o DPkg::Lock::Timeout=300 update -qq; then
    echo "nictx: 'apt-get update' failed; check the network or the apt sources." >&2
    exit 1
fi
if ! "${SUDO[@]}" apt-get -o DPkg::Lock::Timeout=300 install -y -qq --no-install-recommends "${need[@]}" >/dev/null; then
    echo "nictx: 'apt-get install ${need[*]}' failed." >&2
    echo "nictx: run:  sudo apt-get install -y ${need[*]}" >&2
    exit 1
fi
echo "nictx: installed ${need[*]}" >&2
