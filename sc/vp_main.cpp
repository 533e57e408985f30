// SPDX-License-Identifier: Apache-2.0
// vp_main.cpp - nictx-vp: the example virtual platform (vp.h) from the
// command line, with the result table.  Options (as `nictx run`): --packets,
// --pkt-size, --burst, --protocol tail|owner|wc, --dev-width, --seed,
// --pcie genNxM; and --quantum-ns (the host's time quantum, default 1000).
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <getopt.h>

#include "vp.h"

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

bool num(const char *s, uint64_t *out)
{
    char *end;
    errno = 0;
    unsigned long long v = std::strtoull(s, &end, 0);
    if (errno || end == s || *end)
        return false;
    *out = v;
    return true;
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
    std::printf("  throughput        %8.3f Mpps   %8.3f Gb/s\n", r.sb.mpps, r.sb.gbps);
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
    static const struct option opts[] = {
        {"packets", required_argument, nullptr, 'n'}, {"pkt-size", required_argument, nullptr, 's'},
        {"burst", required_argument, nullptr, 'b'},   {"protocol", required_argument, nullptr, 'p'},
        {"dev-width", required_argument, nullptr, 'w'}, {"seed", required_argument, nullptr, 'S'},
        {"pcie", required_argument, nullptr, 'P'},    {"quantum-ns", required_argument, nullptr, 'q'},
        {"help", no_argument, nullptr, 'h'},          {nullptr, 0, nullptr, 0},
    };
    struct sim_cfg cfg;
    uint64_t v, quantum_ns = 1000;
    int c;

    sim_cfg_default(&cfg);
    while ((c = getopt_long(argc, argv, "", opts, nullptr)) != -1) {
        switch (c) {
        case 'n': if (!num(optarg, &v)) return usage("--packets: a number"); cfg.packets = v; break;
        case 's':
            if (!num(optarg, &v)) return usage("--pkt-size: a number");
            cfg.pkt_size = cfg.pkt_size_max = static_cast<unsigned>(v);
            break;
        case 'b': if (!num(optarg, &v)) return usage("--burst: a number"); cfg.burst = static_cast<unsigned>(v); break;
        case 'p': if (sim_parse_proto(optarg, &cfg.proto) != 0) return usage("--protocol: tail, owner or wc"); break;
        case 'w': if (!num(optarg, &v)) return usage("--dev-width: a number"); cfg.dev_width = static_cast<unsigned>(v); break;
        case 'S': if (!num(optarg, &v)) return usage("--seed: a number"); cfg.seed = v; break;
        case 'P': if (pcie_cfg_parse_link(&cfg.pcie, optarg) != 0) return usage("--pcie: genNxM"); break;
        case 'q': if (!num(optarg, &quantum_ns) || !quantum_ns) return usage("--quantum-ns: > 0"); break;
        case 'h': usage(nullptr); return 0;
        default: return usage(nullptr);
        }
    }
    if (optind < argc)
        return usage("unexpected argument");

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
