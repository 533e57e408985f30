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
        std::printf("nictx-vp (SystemC TLM-2.0): %" PRIu64 " x %u B, burst %u, %s, width %u, seed %" PRIu64 "\n",
                    cfg.packets, cfg.pkt_size, cfg.burst, sim_proto_name(cfg.proto), cfg.dev_width, cfg.seed);
        std::printf("  %-28s %s\n", "status", r.status == 0 ? "done" : r.status == -1 ? "watchdog" : "failed");
        std::printf("  %-28s %" PRIu64 "\n", "frames sent", r.sent);
        std::printf("  %-28s %" PRIu64 "\n", "frames checked", r.sb.checked);
        std::printf("  %-28s %" PRIu64 "\n", "frames lost", r.sb.lost);
        std::printf("  %-28s %" PRIu64 "\n", "frames corrupted", r.sb.corrupted);
        std::printf("  %-28s %.3f\n", "Mpps (simulated time)", r.sb.mpps);
        std::printf("  %-28s %.3f\n", "Gb/s (frame data)", r.sb.gbps);
        std::printf("  %-28s %.1f / %.1f / %.1f\n", "latency p50/p99/max ns", r.sb.lat_p50_ns,
                    r.sb.lat_p99_ns, r.sb.lat_max_ns);
        std::printf("  %-28s %.3f\n", "simulated time us", r.end.to_seconds() * 1e6);
        std::printf("  %-28s %" PRIu64 " / %" PRIu64 "\n", "device cycles run/skipped", st.cycles,
                    st.cycles_skipped);
        std::printf("  %-28s 0x%x\n", "device ERR", r.dev_err);
        std::printf("  %-28s %016" PRIx64 "\n", "frame digest", r.digest);
        std::printf("  %-28s %.3f\n", "wall s", wall);
        std::printf("  %-28s %.0f\n", "sim pkts per wall s", wall > 0 ? (double)r.sb.checked / wall : 0.0);
        return r.status == 0 && r.sb.lost == 0 && r.sb.corrupted == 0 ? 0 : 1;
    } catch (const std::exception &e) {
        std::fprintf(stderr, "nictx-vp: %s\n", e.what());
        return 2;
    }
}
