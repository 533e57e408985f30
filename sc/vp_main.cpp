// SPDX-License-Identifier: Apache-2.0
// vp_main.cpp - nictx-vp: the example virtual platform (vp.h) from the
// command line, with the result table.  Options (as `nictx run`): --packets,
// --pkt-size, --burst, --protocol tail|owner|wc, --dev-width, --seed,
// --pcie genNxM; and --quantum-ns (the host's time quantum, default 1000).
#include <chrono>
#include <cmath>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <getopt.h>

#include "vp.h"
extern "C" {
#include "lib/num.h"
#include "run/settings.h"
}

namespace {

int usage(const char *msg)
{
    if (msg)
        std::fprintf(stderr, "nictx-vp: %s\n", msg);
    std::fprintf(stderr, "usage: nictx-vp [--packets N] [--pkt-size B] [--burst N] "
                         "[--protocol tail|owner|wc] [--dev-width 8|16|32|64] [--seed S] "
                         "[--pcie genNxM] [--quantum-ns NS]\n");
    return 2;
}

// One option through the settings table (sim/run/settings.h), as nictx run
// parses it: the same strict numbers (no sign, hex or leading zero) and the
// same ranges.  0, or usage()'s 2 with the reason.
int set_opt(struct sim_cfg *cfg, const char *opt, const char *val)
{
    const struct sim_setting *s = sim_setting_by_opt(opt);
    char why[256];
    if (!s)
        return usage("internal: an option the settings table does not have");
    int e = sim_setting_parse_opt(s, cfg, val, why, sizeof why);
    if (e == 0)
        return 0;
    char msg[384];
    if (e == SET_BAD_MSG)
        std::snprintf(msg, sizeof msg, "%s", why);
    else
        std::snprintf(msg, sizeof msg, "--%s %s: %s", opt, val, why);
    return usage(msg);
}

// v in fmt, or "n/a" when it is not a number (a run too short to measure).
const char *fig(char *buf, size_t n, const char *fmt, double v)
{
    if (std::isnan(v))
        std::snprintf(buf, n, "%s", "n/a");
    else
        std::snprintf(buf, n, fmt, v);
    return buf;
}

} // namespace

// The result table, in nictx run's layout (sim/cli/report.c) for the figures the
// VP measures; the lines it cannot fill (CPU cost by cause, utilisations and
// the bound, PCIe bytes by kind: the VP host has no cost model) are left out.
void vp_report(const struct sim_cfg &c, const nictx_vp_result &r, const nictx_sc_stats &st,
               double wall)
{
    std::printf("nictx-vp: %u B frames, burst %u, %" PRIu64 " packets, gen%ux%u MPS %u MRRS %u, "
                "%g Gb/s line, device %u B/clock at %g MHz, ring %u, seed %" PRIu64 "\n",
                c.pkt_size, c.burst, c.packets, c.pcie.gen, c.pcie.lanes, c.pcie.mps, c.pcie.mrrs,
                c.line_gbps, c.dev_width, c.dev_mhz, c.ring_size, c.seed);
    std::printf("       SystemC TLM-2.0 virtual platform; protocol %s\n", sim_proto_name(c.proto));
    if (r.status != 0)
        std::printf("RUN %s\n", r.status == -1 ? "STOPPED: watchdog" : "FAILED");
    char a[32], b[32];
    std::printf("  throughput        %8s Mpps   %8s Gb/s\n", fig(a, sizeof a, "%.3f", r.sb.mpps),
                fig(b, sizeof b, "%.3f", r.sb.gbps));
    std::printf("  packets           sent %" PRIu64 "  checked %" PRIu64 "  lost %" PRIu64
                "  corrupted %" PRIu64 "\n", r.sent, r.sb.checked, r.sb.lost, r.sb.corrupted);
    std::printf("  doorbell-to-wire  p50 %.0f ns  p99 %.0f ns  max %.0f ns\n", r.sb.lat_p50_ns,
                r.sb.lat_p99_ns, r.sb.lat_max_ns);
    std::printf("  device            ERR 0x%x, frame digest %016" PRIx64 ", %.3f us simulated\n",
                r.dev_err, r.digest, r.end.to_seconds() * 1e6);
    std::printf("  simulator         %.2f s wall, %.0f sim pkts/s, %" PRIu64 " cycles evaluated, %"
                PRIu64 " skipped\n", wall, wall > 0 ? (double)r.sb.checked / wall : 0.0, st.cycles,
                st.cycles_skipped);
}

int sc_main(int argc, char **argv)
{
    // 'o': the option of the same name in the settings table.
    static const struct option opts[] = {
        {"packets", required_argument, nullptr, 'o'},  {"pkt-size", required_argument, nullptr, 'o'},
        {"burst", required_argument, nullptr, 'o'},    {"protocol", required_argument, nullptr, 'o'},
        {"dev-width", required_argument, nullptr, 'o'}, {"seed", required_argument, nullptr, 'o'},
        {"pcie", required_argument, nullptr, 'o'},     {"quantum-ns", required_argument, nullptr, 'q'},
        {"help", no_argument, nullptr, 'h'},           {nullptr, 0, nullptr, 0},
    };
    struct sim_cfg cfg;
    uint64_t quantum_ns = 1000;
    int c, idx = 0;

    sim_cfg_default(&cfg);
    while ((c = getopt_long(argc, argv, "", opts, &idx)) != -1) {
        switch (c) {
        case 'o':
            if (set_opt(&cfg, opts[idx].name, optarg) != 0)
                return 2;
            break;
        case 'q': {
            char why[128];
            enum num_err e = num_u64(optarg, UINT64_MAX, NUM_STRICT, &quantum_ns);
            if (e == NUM_OK && quantum_ns == 0)
                return usage("--quantum-ns 0: must be > 0");
            if (e != NUM_OK) {
                char msg[256];
                std::snprintf(msg, sizeof msg, "--quantum-ns %s: %s", optarg,
                              num_why(e, UINT64_MAX, why, sizeof why));
                return usage(msg);
            }
            break;
        }
        case 'h': usage(nullptr); return 0;
        default: return usage(nullptr);
        }
    }
    if (optind < argc)
        return usage("unexpected argument");
    cfg.pkt_size_max = cfg.pkt_size; // fixed-size frames
    char err[512];
    if (sim_cfg_validate(&cfg, err, sizeof err) != 0) {
        std::fprintf(stderr, "nictx-vp: %s\n", err);
        return 2;
    }

    try {
        nictx_vp vp("vp", cfg, sc_core::sc_time(static_cast<double>(quantum_ns), sc_core::SC_NS));
        auto t0 = std::chrono::steady_clock::now();
        sc_core::sc_start();
        double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        const nictx_vp_result &r = vp.result();
        const nictx_sc_stats &st = vp.nic.stats();
        vp_report(cfg, r, st, wall);
        return r.status == 0 && r.sb.lost == 0 && r.sb.corrupted == 0 ? 0 : 1;
    } catch (const std::exception &e) {
        std::fprintf(stderr, "nictx-vp: %s\n", e.what());
        return 2;
    }
}
