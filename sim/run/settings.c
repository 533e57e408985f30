/* SPDX-License-Identifier: Apache-2.0 */
/*
 * settings.c - the table of a run's settings, and what reads it (see
 * settings.h; the value types are set_types.c).
 */
#include "run/settings.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "run/set_types.h"
#include "pktgen.h"

#define NNAMES(a) (sizeof(a) / sizeof((a)[0]))

/* ------------------------------------------------------------ the table */

/* offsetof(struct sim_cfg, m); does not compile unless member m has type T. */
#define FIELD(m, T)                                                            \
    (offsetof(struct sim_cfg, m) +                                             \
     0 * sizeof(char[_Generic(((struct sim_cfg *)0)->m, T : 1, default : -1)]))
/* The value type and the field it sets, checked against each other. */
#define UNS(m) .type = &set_unsigned, .off = FIELD(m, unsigned)
#define U64(m) .type = &set_u64, .off = FIELD(m, uint64_t)
#define NUM(m) .type = &set_number, .off = FIELD(m, double)
#define TMO(m) .type = &set_timeout, .off = FIELD(m, double)
#define FLAG(m) .type = &set_flag, .off = FIELD(m, int)
/* Enums are read and written as unsigned ints. */
#define ENUM(m, T, ty)                                                           \
    .type = &ty, .off = FIELD(m, T) + 0 * sizeof(char[sizeof(T) == sizeof(unsigned) ? 1 : -1])
#define TYPED(m, T, ty) .type = &ty, .off = FIELD(m, T)
#define OPT(o, a) .opt = o, .arg = a
#define KEY(s, k) .section = s, .key = k
#define SPAN(lo, hi) .range = {lo, hi, SET_RANGE_SPAN}
#define OR_0(lo, hi) .range = {lo, hi, SET_RANGE_OR_0}
#define POW2(lo, hi) .range = {lo, hi, SET_RANGE_POW2}
/* A cpu.* cost, in ns: no option; its default is the --cpu profile's.  At
 * most COST_MAX_NS each: three orders above the dearest real one (an MMIO
 * read's microsecond), and low enough that every timeout derived from the
 * costs (sim_cfg_timeouts) and a run's clock stay exact in picoseconds. */
#define COST_MAX_NS 1e6
#define COST(f, help_)                                                                     \
    {"cpu_costs_ns." #f, KEY("cpu", #f "_ns"), NUM(costs.f##_ns), SPAN(0, COST_MAX_NS),    \
     .help = help_}

static int text_random_sizes(const struct sim_cfg *c) { return c->pkt_size_max > c->pkt_size; }
static int text_weak(const struct sim_cfg *c) { return c->ordering == STBUF_WEAK; }
static int text_bql(const struct sim_cfg *c) { return c->bql; }
static int text_bql_stall(const struct sim_cfg *c) { return c->bql_stall_ms != 0; }
static int text_sizes(const struct sim_cfg *c) { return !c->obs.pcap_in[0]; } /* not a capture's */

/* Reported, not set: what the settings make of the link and the line. */
static void json_tlp_gbps(struct json *j, const char *key, const struct sim_cfg *c)
{
    json_num(j, key, pcie_cfg_tlp_gbps(&c->pcie));
}

static void json_line_programmed(struct json *j, const char *key, const struct sim_cfg *c)
{
    json_num(j, key, sim_cfg_line_gbps_eff(c));
}

/* The timeouts a run uses (sim_cfg_timeouts), not the settings. */
static void json_cpl_timeout(struct json *j, const char *key, const struct sim_cfg *c)
{
    struct sim_timeouts to;

    sim_cfg_timeouts(c, &to);
    json_num(j, key, to.cpl_us);
}

static void json_tx_timeout(struct json *j, const char *key, const struct sim_cfg *c)
{
    struct sim_timeouts to;

    sim_cfg_timeouts(c, &to);
    json_num(j, key, to.tx_us);
}

static void json_watchdog(struct json *j, const char *key, const struct sim_cfg *c)
{
    struct sim_timeouts to;

    sim_cfg_timeouts(c, &to);
    json_num(j, key, to.watchdog_us);
}

_Static_assert(DEV_WIDTH_DEFAULT == 8, "the dev_width row's default");

static const struct sim_setting settings[] = {
    /* workload */
    {"pkt_size", OPT("pkt-size", "N"), UNS(pkt_size), SPAN(64, 16387), .def = "64",
     .group = SET_G_WORKLOAD, .text = "{} B frames", .text_if = text_sizes,
     .help = "Ethernet frame size incl. 4 B FCS"},
    {"pkt_size_max", OPT("pkt-size-max", "N"), UNS(pkt_size_max), SPAN(64, 16387), .def = "64",
     .group = SET_G_WORKLOAD, .flags = SET_NODEF, .text = "random sizes up to {} B",
     .text_if = text_random_sizes,
     .help = "random frame sizes, uniform in [--pkt-size, N] (default: fixed, N = --pkt-size)"},
    {"burst", OPT("burst", "N"), KEY("driver", "burst"), UNS(burst), SPAN(1, 65536), .def = "8",
     .group = SET_G_WORKLOAD, .text = "burst {}",
     .help = "pktgen burst: N-1 packets with xmit_more, then a doorbell"},
    {"packets", OPT("packets", "N"), U64(packets), SPAN(1, 1099511627776.0), .def = "100000",
     .group = SET_G_WORKLOAD, .text = "{} packets",
     .help = "packets to send (with several queues, the total)"},
    {"seed", OPT("seed", "N"), U64(seed), .def = "1", .group = SET_G_WORKLOAD,
     .text = "seed {}", .help = "seed for payloads and random sizes"},
    {"schedule", OPT("schedule", "S"), U64(schedule), .def = "0", .group = SET_G_OWNERSHIP,
     .flags = SET_TEXT_SET, .text = "schedule {}",
     .help = "run exactly exploration schedule S (0: none; sim/host/explore.h)"},
    {"buf_offset", OPT("buf-offset", "N"), UNS(buf_offset), SPAN(0, PKTGEN_BUF_OFFSET_MAX),
     .def = "0", .group = SET_G_WORKLOAD, .help = "frame offset inside its DMA buffer"},
    {"buf_align", OPT("buf-align", "P"), KEY("driver", "buf_align"),
     TYPED(buf_place, struct sim_buf_place, set_buf_place), .def = "frag",
     .group = SET_G_WORKLOAD,
     .help = "where the buffers lie: frag (Linux's page fragments), skb "
             "(kmalloc'd heads), packed (back to back), or N: each on an N-byte boundary "
             "(docs/pcie.md, Buffer placement)"},
    /* host: the CPU's costs */
    {"cpu", OPT("cpu", "NAME"), TYPED(cpu_profile, char *, set_cpu), .def = "x86",
     .group = SET_G_HOST, .text = "cpu {}",
     .help = "CPU cost table: sets every cpu.* key (a --profile names its own); graviton2 is "
             "an arm64 server part, for --ordering weak (docs/profiles.md)"},
    COST(xmit_pkt, "ns, ndo_start_xmit work per packet, excluding the costs below"),
    COST(clean_poll, "ns, one cleanup pass: read head, loop set-up"),
    COST(clean_desc, "ns, per reclaimed descriptor (unmap, free)"),
    COST(store, "ns, one 8-byte store to DMA-coherent memory"),
    COST(load, "ns, one load of a DMA-coherent word (head writeback)"),
    COST(dma_wmb, "ns, dma_wmb() issue cost (x86: compiler barrier; arm64: dmb oshst)"),
    COST(wmb, "ns, wmb() issue cost (x86: sfence; arm64: dsb st)"),
    COST(smp_mb, "ns, smp_mb() issue cost (x86: lock addl; arm64: dmb ish)"),
    {"cpu_costs_ns.mmio_write", OPT("mmio-write-ns", "NS"), KEY("cpu", "mmio_write_ns"),
     NUM(costs.mmio_write_ns), SPAN(0, COST_MAX_NS), .group = SET_G_HOST, .flags = SET_LATE,
     .help = "ns, issue cost of an uncached posted MMIO write (the option applies after "
             "--cpu)"},
    COST(mmio_read, "ns, issue cost of an uncached MMIO read, before its stall"),
    COST(wc_store, "ns, one 8-byte store through a write-combining mapping"),
    COST(drain_hit, "ns, a store to a line the CPU holds becomes visible"),
    COST(drain_miss, "ns, a store to a line the device touched becomes visible"),
    COST(wc_drain_max, "ns, an unfenced full WC line drains within this"),
    COST(line_xfer, "ns, access to a line another CPU holds Modified"),
    COST(line_upgrade, "ns, write to a line other CPUs hold Shared"),
    COST(lock, "ns, spin_lock + spin_unlock, uncontended"),
    COST(uc_drain, "ns, a posted uncached write leaves the CPU after this; a locked "
                   "instruction waits for it"),
    {"qdisc_pkt_ns", KEY("cpu", "qdisc_pkt_ns"), NUM(costs.qdisc_pkt_ns), .flags = SET_NOJSON,
     .help = "ns, qdisc dequeue work per packet"},
    {"store_buffer_entries", KEY("cpu", "sb_entries"), UNS(costs.sb_entries), SPAN(1, 4096),
     .help = "store buffer entries"},
    /* host: memory and the driver's polling */
    {"mem_latency_ns", OPT("mem-latency-ns", "NS"), KEY("host", "mem_latency_ns"),
     NUM(mem_latency_ns), SPAN(0, 1e6), .def = "350", .group = SET_G_HOST,
     .help = "DMA read: arrival at the root complex to completion (+ 2 link trips = the "
             "round trip)"},
    {"poll_ns", OPT("poll-ns", "NS"), KEY("host", "poll_ns"), NUM(poll_ns), SPAN(1, 1e6),
     .def = "1000", .group = SET_G_HOST,
     .help = "a blocked driver polls again after this long"},
    /* the PCIe link; pcie_cfg_default() has the defaults, pcie_cfg_validate() the ranges */
    {"pcie.link", OPT("pcie", "genGxW"), KEY("link", "pcie"), TYPED(pcie, struct pcie_cfg, set_link),
     .group = SET_G_PCIE, .text = "{}", .help = "PCIe generation and lanes, e.g. gen3x8"},
    {"pcie.mps", OPT("mps", "N"), KEY("link", "mps"), UNS(pcie.mps), .group = SET_G_PCIE,
     .text = "MPS {}", .help = "bytes, max payload size"},
    {"pcie.mrrs", OPT("mrrs", "N"), KEY("link", "mrrs"), UNS(pcie.mrrs), .group = SET_G_PCIE,
     .text = "MRRS {}", .help = "bytes, max read request size"},
    {"pcie.rcb", OPT("rcb", "N"), KEY("link", "rcb"), UNS(pcie.rcb), .group = SET_G_PCIE,
     .help = "bytes, read completion boundary: 64 or 128"},
    {"pcie.rcb_chunks", OPT("rcb-chunks", NULL), FLAG(pcie.rcb_chunks), .group = SET_G_PCIE,
     .help = "the root complex completes in RCB-sized pieces (else in pieces of up to MPS)"},
    {"pcie.latency_ns", OPT("pcie-latency-ns", "NS"), KEY("link", "latency_ns"),
     NUM(pcie.latency_ns), .group = SET_G_PCIE, .help = "one-way link latency"},
    {"pcie.tlp_gbps", .json = json_tlp_gbps,
     .help = "the link's TLP-layer bandwidth, Gb/s (reported)"},
    {"pcie.fc_dev", OPT("fc-dev", "LIST"), TYPED(fc_dev, struct pcie_fc_cfg, set_fc),
     .group = SET_G_PCIE,
     .help = "credits the device advertises, e.g. ph=1,pd=32 (types ph pd nph npd cplh cpld; "
             "headers in TLPs, data in 16 B; 0 or absent = infinite)"},
    {"pcie.fc_host", OPT("fc-host", "LIST"), TYPED(fc_host, struct pcie_fc_cfg, set_fc),
     .group = SET_G_PCIE, .help = "credits the root complex advertises (the same form)"},
    {"fc_update_ns", OPT("fc-update-ns", "NS"),
     TYPED(fc_dev.update_latency_ns, double, set_fc_update), SPAN(0, PCIE_FC_UPDATE_MAX_NS),
     .def = "0", .group = SET_G_PCIE,
     .flags = SET_NOJSON, .help = "a receiver frees a buffer -> its UpdateFC DLLP is queued"},
    /* the device */
    {"dev_mhz", OPT("dev-mhz", "F"), KEY("device", "dev_mhz"), NUM(dev_mhz), SPAN(10, 2000),
     .def = "250", .group = SET_G_DEVICE, .help = "MHz, the device clock"},
    {"dev_width", OPT("dev-width", "N"), KEY("device", "dev_width"), UNS(dev_width),
     POW2(8, 64), .def = "8", .group = SET_G_DEVICE, .flags = SET_EARLY,
     .text = "device {} B/clock at {dev_mhz} MHz",
     .help = "datapath bytes per device clock, each width its own RTL model (docs/width.md)"},
    /* the hardware: elaboration parameters (struct dev_hw, sim/device/dev_hw.c) */
    {"hw_queues", OPT("hw-queues", "N"), KEY("hardware", "queues"), UNS(hw.queues), POW2(1, 64),
     .def = "64", .group = SET_G_HARDWARE, .flags = SET_TEXT_SET, .text = "hw queues {}",
     .help = "NumQueues: transmit queues the hardware has (--queues uses up to it)"},
    {"hw_tags", OPT("hw-tags", "N"), KEY("hardware", "tags"), UNS(hw.tags), POW2(2, 256),
     .def = "256", .group = SET_G_HARDWARE, .flags = SET_TEXT_SET, .text = "hw tags {}",
     .help = "NumTags: read tags the hardware has, the depth of its two tag FIFOs (--tags "
             "uses up to it)"},
    {"hw_desc_reads", OPT("hw-desc-reads", "N"), KEY("hardware", "desc_reads"),
     UNS(hw.desc_reads), POW2(2, 8), .def = "8", .group = SET_G_HARDWARE,
     .flags = SET_TEXT_SET, .text = "hw desc reads {}",
     .help = "DescReads: descriptor reads outstanding, the retirement FIFOs' depth "
             "(--desc-fetch-inflight uses up to it)"},
    {"hw_desc_buf", OPT("hw-desc-buf", "N"), KEY("hardware", "desc_buf"), UNS(hw.desc_buf),
     POW2(64, 256), .def = "256", .group = SET_G_HARDWARE, .flags = SET_TEXT_SET,
     .text = "hw desc buf {}",
     .help = "DescBufDescs: descriptor buffer slots, one region of them per queue (at "
             "least one fetch: DescFetchMaxHw, 64)"},
    {"hw_pay_buf", OPT("hw-pay-buf", "B"), KEY("hardware", "pay_buf"), UNS(hw.pay_buf),
     POW2(16384, 262144), .def = "32768", .group = SET_G_HARDWARE, .flags = SET_TEXT_SET,
     .text = "hw payload buffer {} B",
     .help = "PayBufBytes: the payload reassembly buffer, bytes (at least one 16383 B frame)"},
    {"hw_pkts", OPT("hw-pkts", "N"), KEY("hardware", "pkts"), UNS(hw.pkts), POW2(2, 256),
     .def = "256", .group = SET_G_HARDWARE, .flags = SET_TEXT_SET, .text = "hw frames {}",
     .help = "MaxPkts: frames the payload buffer holds at once, the depth of its two frame "
             "FIFOs"},
    {"area", OPT("area", NULL), FLAG(area), .group = SET_G_HARDWARE, .flags = SET_NOJSON,
     .help = "also report the engine's area at these sizes (Yosys 0.23, cached by key: "
             "the first run of a combination synthesizes it, minutes; docs/codesign.md)"},
    {"device", OPT("device", "B"), ENUM(device, enum dev_backend, set_device), .def = "rtl",
     .group = SET_G_DEVICE, .flags = SET_TEXT_SET, .text = "model {}",
     .help = "the device model: the Verilated RTL, the cycle-exact C model, or both in "
             "lockstep, every output compared on every clock, the first difference ending "
             "the run (docs/c-model.md)"},
    {"line_gbps", OPT("line", "R"), KEY("device", "line_gbps"), NUM(line_gbps),
     .opt_type = &set_rate, SPAN(0.1, 800), .def = "10", .group = SET_G_DEVICE,
     .text = "{} Gb/s line",
     .help = "Gb/s, the Ethernet line rate; the option takes 10g, 25g, 40g, 100g or <Gb/s>g"},
    {"line_gbps_programmed", .json = json_line_programmed,
     .help = "the line rate the MAC's rate register gives, Gb/s (reported)"},
    {"ring_size", OPT("ring", "N"), KEY("device", "ring_size"), UNS(ring_size),
     POW2(8, 65536), .def = "1024", .group = SET_G_DEVICE, .text = "ring {}",
     .help = "descriptors in each queue's TX ring"},
    {"queues", OPT("queues", "N"), KEY("device", "queues"), UNS(queues), SPAN(1, SIM_QUEUES_MAX),
     .def = "1", .group = SET_G_DEVICE, .flags = SET_TEXT_SET, .text = "queues {}",
     .help = "transmit queues, each its own ring; --packets is the total, spread evenly; "
             "queue q runs on CPU q mod --cpus (--xps); completions and interrupts per queue "
             "(MSI-X vector q).  More than 1 needs --protocol tail or owner"},
    {"sched", OPT("sched", "S"), KEY("device", "sched"), ENUM(sched, enum sim_sched, set_sched),
     .def = "rr", .group = SET_G_DEVICE,
     .help = "the scheduler across queues: one frame a turn (rr), or deficit round robin by "
             "frame bytes (drr)"},
    {"weights", OPT("weights", "W[,W...]"), KEY("device", "weights"),
     TYPED(weights, struct sim_weights, set_weights), SPAN(1, SIM_WEIGHT_MAX),
     .group = SET_G_DEVICE, .help = "queue weights: one for all queues, or one per queue"},
    {"drr_quantum", OPT("drr-quantum", "N"), KEY("device", "drr_quantum"), UNS(drr_quantum),
     SPAN(64, 65536), .def = "2048", .group = SET_G_DEVICE,
     .help = "DRR bytes per unit of weight per round"},
    {"desc_fetch_max", OPT("desc-fetch-max", "N"), KEY("device", "desc_fetch_max"),
     UNS(desc_fetch_max), SPAN(1, TXQ_FETCH_MAX_MAX), .def = "8", .group = SET_G_DEVICE,
     .help = "descriptors per descriptor fetch"},
    {"desc_fetch_inflight", OPT("desc-fetch-inflight", "N"), KEY("device", "desc_fetch_inflight"),
     UNS(desc_inflight), SPAN(1, TXQ_INFLIGHT_MAX), .def = "4", .group = SET_G_DEVICE,
     .help = "descriptor reads in flight at once"},
    {"tags", OPT("tags", "N"), KEY("device", "tags"), UNS(tags), SPAN(1, 256), .def = "32",
     .group = SET_G_DEVICE, .help = "DMA read tags the device may use at once"},
    {"max_read_bytes", OPT("max-read-bytes", "N"), UNS(max_rd_bytes), OR_0(4096, 2097151),
     .def = "0", .group = SET_G_DEVICE, .help = "outstanding DMA read bytes (0: no limit)"},
    {"wb_thresh", OPT("wb-thresh", "N"), KEY("device", "wb_thresh"), UNS(wb_thresh),
     SPAN(0, 65535), .def = "32", .group = SET_G_DEVICE,
     .help = "head writeback every N completions (0: off); below --ring"},
    {"irq_thresh", OPT("irq-thresh", "N"), KEY("device", "irq_thresh"), UNS(irq_thresh),
     SPAN(0, 65535), .def = "0", .group = SET_G_DEVICE,
     .help = "interrupt every N completions (0: off)"},
    {"clean", OPT("clean", "wb|mmio"), ENUM(clean, enum txq_clean_mode, set_clean),
     .group = SET_G_DEVICE, .flags = SET_NODEF,
     .help = "the same as --completion head-wb|mmio"},
    {"completion", OPT("completion", "M"), KEY("driver", "completion"),
     ENUM(clean, enum txq_clean_mode, set_completion), .def = "head-wb", .group = SET_G_DEVICE,
     .flags = SET_TEXT_SET, .text = "completion {}",
     .help = "how cleanup learns what completed: head writeback, the HEAD register, DD bits "
             "in the descriptors (desc-wb), a completion queue (cq)"},
    {"desc_wb", OPT("desc-wb", "word|full"), KEY("driver", "desc_wb"),
     ENUM(desc_wb, enum sim_desc_wb, set_desc_wb), .def = "word", .group = SET_G_DEVICE,
     .help = "--completion desc-wb writes back a 4 B done word per batch, or each descriptor "
             "whole (16 B, Intel's write-back)"},
    {"irq_usecs", OPT("irq-usecs", "US"), KEY("device", "irq_usecs"), NUM(irq_usecs),
     .def = "0", .group = SET_G_DEVICE,
     .help = "us, the interrupt moderation timer from the first unsignalled completion "
             "(0: off)"},
    /* ownership (docs/ownership.md) */
    {"protocol", OPT("protocol", "P"), KEY("driver", "protocol"),
     ENUM(proto, enum txq_proto, set_proto), .def = "tail", .group = SET_G_OWNERSHIP,
     .text = "protocol {}", .help = "how descriptors pass to the device"},
    {"barrier", OPT("barrier", "B"), KEY("driver", "barrier"),
     ENUM(barrier, enum txq_barrier, set_barrier), .def = "per-desc", .group = SET_G_OWNERSHIP,
     .text = "barrier {}", .help = "the descriptor-side barrier before the owner bits"},
    {"ordering", OPT("ordering", "O"), KEY("host", "ordering"),
     ENUM(ordering, enum stbuf_order, set_ordering), .def = "x86", .group = SET_G_OWNERSHIP,
     .text = "ordering {}",
     .help = "when CPU stores become visible to DMA: x86 (TSO) or weak (ARMv8-like)"},
    {"reorder_window", OPT("reorder-window", "N"), KEY("host", "reorder_window"),
     UNS(reorder_window), SPAN(1, STBUF_WINDOW_MAX), .def = "8", .group = SET_G_OWNERSHIP,
     .text = "window {}", .text_if = text_weak,
     .help = "weak ordering: stores that may overtake one another"},
    {"driver_bug", OPT("driver-bug", "NAME"), TYPED(bug, enum drv_bug, set_bug),
     .group = SET_G_OWNERSHIP, .flags = SET_NODEF | SET_TEXT_SET,
     .text = "DRIVER BUG {} at packet {bug_at}",
     .help = "run a deliberately broken driver; 'list' prints them"},
    {"bug_at", OPT("bug-at", "N"), U64(bug_at), .def = "1000", .group = SET_G_OWNERSHIP,
     .help = "packet from which the driver bug acts (a one-shot bug: at its first occasion "
             "from there); below the run's packets (queue 0's with several queues)"},
    /* host: CPUs and the stack (docs/calibration.md) */
    {"cpus", OPT("cpus", "N"), KEY("host", "cpus"), UNS(cpus), SPAN(1, SIM_MAX_CPUS),
     .def = "1", .group = SET_G_HOST, .text = "cpus {}",
     .help = "host CPUs, one socket.  One queue: CPU 0 sends; a second CPU runs the "
             "completions, woken by head writeback or interrupt; CPUs beyond it stay idle.  "
             "Several queues: each CPU sends on and cleans up its queues (--xps)"},
    {"xps", OPT("xps", "auto|C[,C...]"), KEY("host", "xps"), TYPED(xps, struct sim_weights, set_xps),
     SPAN(0, SIM_MAX_CPUS - 1), .def = "auto", .group = SET_G_HOST, .flags = SET_TEXT_SET,
     .text = "xps {}",
     .help = "the CPU of each queue (transmit and its cleanup): auto is the kernel's default "
             "of a queue per CPU, queue q on CPU q mod --cpus (ixgbe's netif_set_xps_queue); "
             "or one CPU for all queues, or one per queue"},
    {"layout", OPT("layout", "L"), KEY("driver", "layout"),
     ENUM(layout, enum sim_layout, set_layout), .def = "split", .group = SET_G_HOST,
     .text = "layout {}",
     .help = "the ring's producer and consumer fields on separate cache lines or on one"},
    {"bql", OPT("bql", "on|off"), KEY("driver", "bql"), TYPED(bql, int, set_onoff),
     .def = "off", .group = SET_G_HOST, .text = "bql {}",
     .help = "byte queue limits (BQL) on the queue"},
    {"dql", OPT("dql", "ORDER"), KEY("driver", "dql"), ENUM(dql, enum dql_order, set_dql),
     .def = "write-first", .group = SET_G_HOST, .text = "dql {}", .text_if = text_bql,
     .help = "BQL dql_queued()'s access order"},
    {"bql_stall_ms", OPT("bql-stall-ms", "MS"), KEY("driver", "bql_stall_ms"),
     UNS(bql_stall_ms), OR_0(DQL_STALL_THRS_MIN, DQL_STALL_THRS_MAX), .def = "0",
     .group = SET_G_HOST, .text = "bql stall {} ms", .text_if = text_bql_stall,
     .help = "BQL's stall detector (Linux 6.9+ byte_queue_limits/stall_thrs): a stall is "
             "this long without a completion after an enqueue; 0: off (needs --bql on)"},
    {"source", OPT("source", "S"), KEY("driver", "source"),
     ENUM(source, enum sim_source, set_source), .def = "pktgen", .group = SET_G_HOST,
     .flags = SET_TEXT_SET, .text = "source {}",
     .help = "packets from pktgen bursts of --burst, or batches a qdisc bulk-dequeues under "
             "its lock within BQL's budget, up to --burst"},
    {"qdisc_root", OPT("qdisc-root", "R"), KEY("driver", "qdisc_root"),
     ENUM(qdisc_root, enum sim_qdisc_root, set_qdisc_root), .def = "per-queue",
     .group = SET_G_HOST, .flags = SET_TEXT_SET, .text = "qdisc root {}",
     .help = "with --source qdisc and several queues: a root qdisc per queue, each its own "
             "lock (per-queue: the kernel's mq default), or one root all queues share "
             "(shared: a single-queue root qdisc), whose lock and statistics every "
             "transmitting CPU takes and writes"},
    {"tail_coalesce", OPT("tail-coalesce", "N"), KEY("driver", "tail_coalesce"),
     UNS(tail_coalesce), .def = "0", .group = SET_G_HOST, .text = "tail coalesce {}",
     .help = "defer the tail write up to N packets even without xmit_more (ixgbe "
             "dispatch_limit; 0: off); below --ring"},
    {"napi_budget", OPT("napi-budget", "N"), KEY("driver", "napi_budget"), UNS(napi_budget),
     SPAN(1, 65536), .def = "64", .group = SET_G_HOST,
     .help = "descriptors one cleanup pass may reclaim"},
    {"napi", KEY("host", "napi"), ENUM(napi, enum sim_napi, set_napi), .def = "poll",
     .help = "one CPU: clean after each burst (poll), or on interrupts (irq)"},
    {"profile", TYPED(profile, char *, set_string), .flags = SET_TEXT_SET,
     .text = "profile {}", .help = "the profile loaded (--profile), empty if none"},
    /* faults and recovery (docs/faults.md) */
    {"inject", OPT("inject", "LIST"), TYPED(inject, struct inj_plan, set_inject),
     .group = SET_G_FAULTS, .flags = SET_TEXT_SET, .text = "inject {}",
     .help = "faults: KIND@N[,KIND@N...], N a packet number; KIND is ur | ca | ep | timeout "
             "(packet N's DMA read), db-off (the device disabled before packet N), "
             "blackout@N:T (no link credits for T ns); frames they cost count as dropped.  "
             "KIND@Q/N: queue Q's packet N (KIND@N: queue 0's); a hang resets the adapter, "
             "every queue"},
    {"cpl_timeout_us", OPT("cpl-timeout-us", "US"), TMO(cpl_timeout_us), SPAN(1, 50000),
     .def = "auto", .group = SET_G_FAULTS, .json = json_cpl_timeout,
     .help = "the device's completion timeout (PCIe: 50 us to 50 ms); auto: derived from the "
             "configuration (docs/faults.md); the JSON reports the one used"},
    {"tx_timeout_us", OPT("tx-timeout-us", "US"), TMO(tx_timeout_us), OR_0(1, 1e9),
     .def = "auto", .group = SET_G_FAULTS, .json = json_tx_timeout,
     .help = "the driver's hang check: no completion for US with work in flight resets the "
             "queue (0: no check); auto: derived"},
    /* observability (docs/observability.md) */
    {"wave", OPT("wave", "FILE.fst"), TYPED(obs.wave, char *, set_path), .group = SET_G_OBS,
     .flags = SET_NOJSON | SET_NODEF,
     .help = "write the device's signals to FILE.fst (FST; GTKWave) inside the window "
             "(--wave-from/--wave-to): the RTL from its trace-enabled model, the C model "
             "its ports and state under the same names; lockstep writes both (FILE.c.fst)"},
    {"wave_from", OPT("wave-from", "T|N"), TYPED(obs.from, struct obs_point, set_point),
     .group = SET_G_OBS, .flags = SET_NOJSON | SET_NODEF,
     .help = "the window of --wave and --timeline opens at a time (12.5us, 800ns) or when "
             "the driver posts packet N (from 0; default: the start)"},
    {"wave_to", OPT("wave-to", "T|N"), TYPED(obs.to, struct obs_point, set_point),
     .group = SET_G_OBS, .flags = SET_NOJSON | SET_NODEF,
     .help = "... and closes at a time, or when frame N has left the wire (default: the end)"},
    {"timeline", OPT("timeline", "FILE.json"), TYPED(obs.timeline, char *, set_path),
     .group = SET_G_OBS, .flags = SET_NOJSON | SET_NODEF,
     .help = "write a timeline of the CPUs, both link directions and the engine, inside the "
             "window, as Chrome trace-event JSON (Perfetto opens it)"},
    {"pcap_out", OPT("pcap-out", "FILE"), TYPED(obs.pcap_out, char *, set_path),
     .group = SET_G_OBS, .flags = SET_NOJSON | SET_NODEF,
     .help = "write every frame that leaves the wire to FILE (pcap, nanosecond simulated "
             "timestamps, no FCS)"},
    {"pcap_in", OPT("pcap-in", "FILE"), TYPED(obs.pcap_in, char *, set_pcap_in),
     .group = SET_G_OBS, .flags = SET_NODEF | SET_TEXT_SET, .text = "frames of {}",
     .help = "send the frames of a capture (pcap or pcapng, Ethernet), in a loop for "
             "--packets, instead of generated ones; the scoreboard checks them on the wire "
             "(one queue)"},
    {"pcap_timing", OPT("pcap-timing", "X"), NUM(obs.pcap_timing), SPAN(0, 1e6), .def = "0",
     .group = SET_G_OBS, .flags = SET_TEXT_SET, .text = "pcap timing x{}",
     .help = "with --pcap-in: send each frame no earlier than its capture time (from the "
             "first) times X (0: as fast as the source goes; 0.5: twice as fast)"},
    {"no_snapshot", OPT("no-snapshot", NULL), FLAG(obs.no_snapshot), .group = SET_G_OBS,
     .flags = SET_NOJSON,
     .help = "no snapshot when a run stops (by default the window before the stop is "
             "written as FILE.snapshot.json and FILE.snapshot.fst beside --json FILE)"},
    {"snapshot_us", OPT("snapshot-us", "US"), NUM(obs.snapshot_us), SPAN(0.001, 1e6),
     .def = "10", .group = SET_G_OBS, .flags = SET_NOJSON,
     .help = "the snapshot's window: this long before the first violation (or the last "
             "progress), to the stop"},
    /* run */
    {"watchdog_us", OPT("watchdog-us", "US"), TMO(watchdog_us), SPAN(1, 1e9), .def = "auto",
     .group = SET_G_RUN, .json = json_watchdog,
     .help = "stop a run with no frame and no device write for US; auto: derived, above "
             "the other timeouts"},
    {"grace_us", OPT("grace-us", "US"), NUM(grace_us), SPAN(0, 1e6), .def = "20",
     .group = SET_G_RUN, .help = "after the first protocol violation run US more, then stop"},
    {"every_clock", OPT("every-clock", NULL), FLAG(every_clock), .group = SET_G_RUN,
     .flags = SET_NOJSON,
     .help = "run every device clock, skip none (the figures are the same; checks the "
             "device's idle and wait signals, slower)"},
};

_Static_assert(NNAMES(settings) <= SIM_SETTINGS_MAX, "SIM_SETTINGS_MAX rows at most");

static const char *const sections[] = {"cpu", "host", "link", "device", "hardware", "driver"};

static const char *const group_titles[SET_GROUPS] = {
    [SET_G_NONE] = "",
    [SET_G_WORKLOAD] = "workload",
    [SET_G_PROFILES] = "profiles (docs/profiles.md)",
    [SET_G_HOST] = "host",
    [SET_G_PCIE] = "pcie",
    [SET_G_DEVICE] = "device",
    [SET_G_HARDWARE] = "hardware: the engine's sizes, a model each (docs/codesign.md)",
    [SET_G_OWNERSHIP] = "ownership (docs/ownership.md)",
    [SET_G_FAULTS] = "faults and recovery (docs/faults.md)",
    [SET_G_OBS] = "observability (docs/observability.md)",
    [SET_G_RUN] = "run",
};

/* ------------------------------------------------------------ lookups */

const struct sim_setting *sim_settings(size_t *n)
{
    *n = NNAMES(settings);
    return settings;
}

const struct sim_setting *sim_setting_find(const char *name)
{
    for (size_t i = 0; i < NNAMES(settings); i++)
        if (strcmp(settings[i].name, name) == 0)
            return &settings[i];
    return NULL;
}

const struct sim_setting *sim_setting_by_opt(const char *opt)
{
    for (size_t i = 0; i < NNAMES(settings); i++)
        if (settings[i].opt && strcmp(settings[i].opt, opt) == 0)
            return &settings[i];
    return NULL;
}

const struct sim_setting *sim_setting_by_key(const char *section, const char *key)
{
    for (size_t i = 0; i < NNAMES(settings); i++)
        if (settings[i].key && strcmp(settings[i].section, section) == 0 &&
            strcmp(settings[i].key, key) == 0)
            return &settings[i];
    return NULL;
}

const char *const *sim_setting_sections(size_t *n)
{
    *n = NNAMES(sections);
    return sections;
}

const char *sim_setting_group_title(enum set_group g)
{
    return (unsigned)g < SET_GROUPS ? group_titles[g] : "";
}

/* ------------------------------------------------------------ values */

static const struct set_type *type_of(const struct sim_setting *s, int opt)
{
    return opt && s->opt_type ? s->opt_type : s->type;
}

int sim_setting_takes_value(const struct sim_setting *s)
{
    return !type_of(s, 1)->flag;
}

int sim_setting_parse_opt(const struct sim_setting *s, struct sim_cfg *c, const char *v,
                          char *why, size_t n)
{
    const struct set_type *t = type_of(s, 1);
    struct sim_cfg tmp = *c;
    int rc = t->parse(t, s, &tmp, v, NUM_STRICT, why, n);

    if (rc != 0)
        return rc;
    if ((s->flags & SET_EARLY) && !set_range_has(&s->range, set_value(t, s, &tmp))) {
        char range[96];
        sim_setting_range_text(s, range, sizeof(range));
        snprintf(why, n, "expected %s", range);
        return SET_BAD_VALUE;
    }
    *c = tmp;
    return 0;
}

int sim_setting_parse_key(const struct sim_setting *s, struct sim_cfg *c, const char *v,
                          char *msg, size_t n)
{
    struct sim_cfg tmp = *c;
    char why[256], expect[160];

    if (s->type->parse(s->type, s, &tmp, v, NUM_LENIENT, why, sizeof(why)) == 0) {
        *c = tmp;
        return 0;
    }
    sim_setting_type_text(s, 0, "|", "|", expect, sizeof(expect));
    snprintf(msg, n, "%s%s%s = '%s': expected %s", s->key ? s->section : s->name,
             s->key ? "." : "", s->key ? s->key : "", v,
             s->type->expect ? s->type->expect : expect);
    return -1;
}

int sim_setting_print_list(const struct sim_setting *s, FILE *f)
{
    const struct set_type *t = type_of(s, 1);

    if (t->list == NULL)
        return -1;
    t->list(f);
    return 0;
}

void sim_setting_format(const struct sim_setting *s, const struct sim_cfg *c, int opt,
                        char *buf, size_t n)
{
    const struct set_type *t = type_of(s, opt);

    t->format(t, s, c, buf, n);
}

void sim_setting_type_text(const struct sim_setting *s, int opt, const char *sep,
                           const char *last, char *buf, size_t n)
{
    const struct set_type *t = type_of(s, opt);

    if (t->choice)
        set_choices(t, sep, last, buf, n);
    else
        snprintf(buf, n, "%s", t->name);
}

/* A range bound: 1e6 and 2^40 as such, another integer in digits, else %g. */
static void bound_text(double v, char *buf, size_t n)
{
    int e;

    if (v >= 1e6 && v == pow(10, round(log10(v))))
        snprintf(buf, n, "1e%.0f", log10(v));
    else if (v >= 1048576 && frexp(v, &e) == 0.5)
        snprintf(buf, n, "2^%d", e - 1);
    else if (v == floor(v) && fabs(v) < 1e15)
        snprintf(buf, n, "%.0f", v);
    else
        snprintf(buf, n, "%g", v);
}

void sim_setting_range_text(const struct sim_setting *s, char *buf, size_t n)
{
    const struct set_range *r = &s->range;
    char lo[32], hi[32];
    size_t len = 0;
    double v;
    int count = 0;

    bound_text(r->lo, lo, sizeof(lo));
    bound_text(r->hi, hi, sizeof(hi));
    buf[0] = '\0';
    switch (r->kind) {
    case SET_RANGE_NONE: break;
    case SET_RANGE_SPAN: snprintf(buf, n, "%s..%s", lo, hi); break;
    case SET_RANGE_OR_0: snprintf(buf, n, "0 or %s..%s", lo, hi); break;
    case SET_RANGE_POW2:
        for (v = r->lo; v <= r->hi; v *= 2)
            count++;
        if (count > 4) {
            snprintf(buf, n, "a power of two %s..%s", lo, hi);
            break;
        }
        for (v = r->lo; v <= r->hi && len < n; v *= 2, count--)
            len += (size_t)snprintf(buf + len, n - len, "%.0f%s", v,
                                    count > 2 ? ", " : count == 2 ? " or " : "");
        break;
    }
    if (s->type && s->type->auto_ok && buf[0]) {
        len = strlen(buf);
        snprintf(buf + len, n - len, ", or auto");
    }
}

const char *sim_setting_label(const struct sim_setting *s, char *buf, size_t n)
{
    if (s->opt)
        snprintf(buf, n, "--%s", s->opt);
    else if (s->key)
        snprintf(buf, n, "%s.%s", s->section, s->key);
    else
        snprintf(buf, n, "%s", s->name);
    return buf;
}

int sim_setting_check(const struct sim_setting *s, const struct sim_cfg *c, char *err,
                      size_t n)
{
    char label[48], value[96], must[160];

    if (s->type == NULL || s->type->in_range == NULL || s->type->in_range(s->type, s, c))
        return 0;
    sim_setting_range_text(s, must, sizeof(must));
    if (!must[0] && s->type->choice)
        sim_setting_type_text(s, 0, ", ", " or ", must, sizeof(must));
    else if (!must[0])
        snprintf(must, sizeof(must), "%s", s->type->expect);
    sim_setting_format(s, c, 1, value, sizeof(value));
    snprintf(err, n, "%s %s: must be %s", sim_setting_label(s, label, sizeof(label)), value, must);
    return -1;
}

/* ------------------------------------------------------------ reports */

void sim_settings_json(struct json *j, const struct sim_cfg *c)
{
    char obj[32] = ""; /* the nested object open, "" for none */

    for (size_t i = 0; i < NNAMES(settings); i++) {
        const struct sim_setting *s = &settings[i];
        const char *dot = strchr(s->name, '.');
        size_t plen = dot ? (size_t)(dot - s->name) : 0;
        if (s->flags & SET_NOJSON)
            continue;
        if (strlen(obj) != plen || strncmp(obj, s->name, plen) != 0) {
            if (obj[0])
                json_obj_end(j);
            snprintf(obj, sizeof(obj), "%.*s", (int)plen, s->name);
            if (obj[0])
                json_obj_begin(j, obj);
        }
        if (s->json)
            s->json(j, dot ? dot + 1 : s->name, c);
        else
            s->type->json(s->type, s, c, j, dot ? dot + 1 : s->name);
    }
    if (obj[0])
        json_obj_end(j);
}

/* The template with {} as s's value and {name} as another setting's. */
static void text_expand(const struct sim_setting *s, const struct sim_cfg *c, char *buf,
                        size_t n)
{
    const char *p = s->text;
    size_t len = 0;

    buf[0] = '\0';
    while (*p && len + 1 < n) {
        const char *end = *p == '{' ? strchr(p, '}') : NULL;
        if (end == NULL) {
            buf[len++] = *p++;
            buf[len] = '\0';
            continue;
        }
        char name[40];
        snprintf(name, sizeof(name), "%.*s", (int)(end - p - 1), p + 1);
        const struct sim_setting *r = name[0] ? sim_setting_find(name) : s;
        if (r)
            sim_setting_format(r, c, 0, buf + len, n - len);
        len += strlen(buf + len);
        p = end + 1;
    }
}

int sim_setting_text(const struct sim_setting *s, const struct sim_cfg *c, char *buf, size_t n)
{
    if (s->text == NULL || (s->text_if && !s->text_if(c)))
        return 0;
    if (s->flags & SET_TEXT_SET) {
        struct sim_cfg d;
        char now[256], def[256];
        sim_cfg_default(&d);
        sim_setting_format(s, c, 0, now, sizeof(now));
        sim_setting_format(s, &d, 0, def, sizeof(def));
        if (strcmp(now, def) == 0)
            return 0;
    }
    text_expand(s, c, buf, n);
    return 1;
}
