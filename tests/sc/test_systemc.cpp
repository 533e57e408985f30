// SPDX-License-Identifier: Apache-2.0
// test_systemc.cpp - the SystemC TLM-2.0 model (sc/, docs/systemc.md).
//
// SystemC elaborates once per process, so the group setup builds every
// platform the tests look at, runs them together in one simulation (each
// instance is independent), and the tests check what each did:
//  - the virtual platform running the C driver delivers the frames of the
//    native harness for the same configuration and seed: the native run
//    ($NICTX, ./build/nictx) checks each of its frames against the
//    scoreboard's reference (length, bytes, FCS, order) and the VP's frames
//    are compared with the same reference byte for byte (digest of the
//    whole stream), so the two streams are the same;
//  - BAR0 accesses the NIC refuses answer the TLM error responses;
//  - a memory error response on a payload read reaches the engine as a
//    completion error: ERR.DMA, the frame skipped;
//  - docs/systemc.md's example builds and runs;
//  - nictx-vp parses its options as nictx run does (the settings table).
// SystemC and the C++ library first: cmocka defines a macro fail().
#include "vp.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

extern "C" { // cmocka 1.1.5's header has no C++ guard
#include <cmocka.h>
}

#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <unistd.h>
#include <vector>

extern "C" {
#include "common/cli_harness.h"
#include "nictx_hw.h"
}

using sc_core::sc_time;
using sc_core::SC_NS;

namespace {

// ------------------------------------------------------------- BAR0 probe

// A CPU that makes the accesses a NIC must refuse, and a few it must not.
struct bar0_probe : sc_core::sc_module {
    tlm_utils::simple_initiator_socket<bar0_probe> cpu {"cpu"};
    nictx_vp_mem mem;
    nictx_sc nic;
    sc_core::sc_signal<bool> irq {"irq"};
    std::vector<tlm::tlm_response_status> st;
    std::vector<uint32_t> val;
    bool done = false;

    SC_HAS_PROCESS(bar0_probe);
    explicit bar0_probe(sc_core::sc_module_name n)
        : sc_module(n), mem("mem", 0x100000000ull, 4096, sc_time(350, SC_NS)), nic("nic")
    {
        cpu.bind(nic.bar0);
        nic.dma.bind(mem.socket);
        nic.irq.bind(irq);
        SC_THREAD(run);
    }

    void access(tlm::tlm_command cmd, uint64_t off, unsigned len, uint32_t v,
                const unsigned char *be = nullptr)
    {
        tlm::tlm_generic_payload gp;
        sc_time delay = sc_core::SC_ZERO_TIME;
        unsigned char buf[8];
        std::memset(buf, 0, sizeof(buf));
        std::memcpy(buf, &v, 4);
        gp.set_command(cmd);
        gp.set_address(off);
        gp.set_data_ptr(buf);
        gp.set_data_length(len);
        gp.set_streaming_width(len);
        gp.set_byte_enable_ptr(const_cast<unsigned char *>(be));
        gp.set_byte_enable_length(be ? len : 0);
        cpu->b_transport(gp, delay);
        wait(delay);
        uint32_t r;
        std::memcpy(&r, buf, 4);
        st.push_back(gp.get_response_status());
        val.push_back(r);
    }

    void run()
    {
        static const unsigned char be_hole[4] = {0xff, 0, 0xff, 0xff};
        access(tlm::TLM_WRITE_COMMAND, NICTX_BAR0_SIZE, 4, 1);              // 0: outside BAR0
        access(tlm::TLM_WRITE_COMMAND, NICTX_REG_WB_THRESH, 3, 1);          // 1: 3 bytes
        access(tlm::TLM_WRITE_COMMAND, NICTX_REG_WB_THRESH + 2, 4, 1);      // 2: misaligned
        access(tlm::TLM_WRITE_COMMAND, NICTX_REG_WB_THRESH, 4, 1, be_hole); // 3: byte enables
        access(tlm::TLM_READ_COMMAND, NICTX_BAR0_SIZE, 4, 0);               // 4: outside BAR0
        access(tlm::TLM_READ_COMMAND, NICTX_REG_ERR, 2, 0);                 // 5: engine: UR
        access(tlm::TLM_READ_COMMAND, NICTX_REG_ERR, 4, 0);                 // 6: ERR
        access(tlm::TLM_WRITE_COMMAND, NICTX_REG_WB_THRESH, 4, 5);          // 7: fine
        access(tlm::TLM_READ_COMMAND, NICTX_REG_WB_THRESH, 4, 0);           // 8: reads it back
        done = true;
    }
};

// ---------------------------------------------------------------- fixture

struct world {
    struct sim_cfg same_cfg, wide_cfg, irq_cfg, dma_cfg;
    nictx_vp *same = nullptr, *wide = nullptr, *irq = nullptr, *dma = nullptr;
    bar0_probe *probe = nullptr;
    const uint64_t dma_fault_seq = 100;
};

// Fixed 64 B frames, tail doorbells, 8 B datapath.
void cfg_same(struct sim_cfg *c)
{
    sim_cfg_default(c);
    c->packets = 3000;
    c->seed = 7;
}

// Mixed sizes, write-combining descriptor push, 32 B datapath.
void cfg_wide(struct sim_cfg *c)
{
    sim_cfg_default(c);
    c->packets = 1500;
    c->pkt_size = 64;
    c->pkt_size_max = 1518;
    c->burst = 4;
    c->proto = TXQ_PROTO_WC;
    c->dev_width = 32;
    c->seed = 11;
}

// Interrupts every 64 completions (MSI-X), owner bits, 16 B datapath.
void cfg_irq(struct sim_cfg *c)
{
    sim_cfg_default(c);
    c->packets = 2000;
    c->irq_thresh = 64;
    c->proto = TXQ_PROTO_OWNER;
    c->dev_width = 16;
    c->seed = 3;
}

int group_setup(void **state)
{
    world *w = new world();
    cfg_same(&w->same_cfg);
    cfg_wide(&w->wide_cfg);
    cfg_irq(&w->irq_cfg);
    sim_cfg_default(&w->dma_cfg);
    w->dma_cfg.packets = 300;
    w->dma_cfg.watchdog_us = 200;
    try {
        w->same = new nictx_vp("same", w->same_cfg);
        w->wide = new nictx_vp("wide", w->wide_cfg);
        w->irq = new nictx_vp("irq", w->irq_cfg);
        w->dma = new nictx_vp("dma", w->dma_cfg);
        w->dma->fault_on_packet(w->dma_fault_seq);
        w->probe = new bar0_probe("probe");
    } catch (const std::exception &e) {
        std::fprintf(stderr, "test_systemc: %s\n", e.what());
        return -1;
    }
    sc_core::sc_start(); // until every platform is done and its NIC idle
    *state = w;
    return 0;
}

int group_teardown(void **state)
{
    world *w = static_cast<world *>(*state);
    if (w) {
        delete w->probe;
        delete w->dma;
        delete w->irq;
        delete w->wide;
        delete w->same;
        delete w;
    }
    return 0;
}

// The digest of the reference stream: every packet's frame and FCS, in order.
uint64_t reference_digest(const struct sim_cfg &c)
{
    struct sb_gen_cfg g = {c.seed, c.pkt_size - 4, c.pkt_size_max - 4, nullptr, nullptr};
    std::vector<uint8_t> buf(g.max_len);
    uint64_t h = NICTX_VP_DIGEST0;
    for (uint64_t seq = 0; seq < c.packets; seq++) {
        unsigned len = sb_pkt_len(&g, seq);
        sb_pkt_fill(&g, seq, buf.data(), len);
        h = nictx_vp_digest(h, buf.data(), len, crc32_fcs(buf.data(), len));
    }
    return h;
}

uint64_t json_u64(const char *json, const char *key)
{
    std::string k = std::string("\"") + key + "\":";
    const char *p = std::strstr(json, k.c_str());
    assert_non_null(p);
    return std::strtoull(p + k.size(), nullptr, 10);
}

double json_double(const char *json, const char *key)
{
    std::string k = std::string("\"") + key + "\":";
    const char *p = std::strstr(json, k.c_str());
    assert_non_null(p);
    return std::strtod(p + k.size(), nullptr);
}

// The native harness's run of the same configuration: its JSON.
std::string native_json(const std::vector<std::string> &args)
{
    void *st = nullptr;
    assert_int_equal(cli_setup(&st), 0);
    struct cli *c = static_cast<struct cli *>(st);
    std::string path = std::string(c->work) + "/native.json";
    std::vector<const char *> argv = {"run"};
    for (const std::string &a : args)
        argv.push_back(a.c_str());
    argv.push_back("--json");
    argv.push_back(path.c_str());
    argv.push_back(nullptr);
    struct run r;
    nictx_argv(c, &r, argv.data());
    expect_status(&r, 0);
    run_free(&r);
    char *j = slurp(path.c_str());
    assert_non_null(j);
    std::string out(j);
    std::free(j);
    cli_teardown(&st);
    return out;
}

void same_frames(const nictx_vp &vp, const struct sim_cfg &c, const std::vector<std::string> &args)
{
    const nictx_vp_result &r = vp.result();
    std::string j = native_json(args);
    const char *js = j.c_str();

    assert_int_equal(json_u64(js, "checked"), c.packets);
    assert_int_equal(json_u64(js, "lost"), 0);
    assert_int_equal(json_u64(js, "corrupted"), 0);
    assert_int_equal(r.status, 0);
    assert_int_equal(r.frames, c.packets);
    assert_int_equal(r.sb.checked, c.packets);
    assert_int_equal(r.sb.lost, 0);
    assert_int_equal(r.sb.corrupted, 0);
    assert_int_equal(r.digest, reference_digest(c));
    print_message("native %.3f Mpps, VP %.3f Mpps (simulated time); %" PRIu64
                  " frames, digest %016" PRIx64 "\n",
                  json_double(js, "mpps"), r.sb.mpps, r.frames, r.digest);
}

// ------------------------------------------------------------------ tests

void test_systemc_same_frames_as_native(void **state)
{
    world *w = static_cast<world *>(*state);
    same_frames(*w->same, w->same_cfg, {"--packets", "3000", "--seed", "7"});
}

void test_systemc_same_frames_as_native_wc_w32(void **state)
{
    world *w = static_cast<world *>(*state);
    same_frames(*w->wide, w->wide_cfg,
                {"--packets", "1500", "--pkt-size", "64", "--pkt-size-max", "1518", "--burst", "4",
                 "--protocol", "wc", "--dev-width", "32", "--seed", "11"});
}

// MSI-X messages pulse the irq output and never reach memory.
void test_systemc_same_frames_as_native_irq(void **state)
{
    world *w = static_cast<world *>(*state);
    const nictx_vp &vp = *w->irq;
    same_frames(vp, w->irq_cfg,
                {"--packets", "2000", "--irq-thresh", "64", "--protocol", "owner", "--dev-width",
                 "16", "--seed", "3"});
    print_message("%" PRIu64 " interrupts\n", vp.result().irqs);
    assert_true(vp.result().irqs >= w->irq_cfg.packets / w->irq_cfg.irq_thresh);
    assert_int_equal(vp.result().irqs, vp.nic.stats().irqs);
    assert_int_equal(vp.nic.stats().dma_write_errors, 0);
}

void test_systemc_bar0_errors(void **state)
{
    const bar0_probe &p = *static_cast<world *>(*state)->probe;

    assert_true(p.done);
    assert_int_equal(p.st.size(), 9);
    assert_int_equal(p.st[0], tlm::TLM_ADDRESS_ERROR_RESPONSE);
    assert_int_equal(p.st[1], tlm::TLM_BURST_ERROR_RESPONSE);
    assert_int_equal(p.st[2], tlm::TLM_BURST_ERROR_RESPONSE);
    assert_int_equal(p.st[3], tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE);
    assert_int_equal(p.st[4], tlm::TLM_ADDRESS_ERROR_RESPONSE);
    // The engine itself refuses a 2-byte register read (Unsupported
    // Request): an error response, all ones, and ERR.BAD_ACCESS.
    assert_int_equal(p.st[5], tlm::TLM_BURST_ERROR_RESPONSE);
    assert_int_equal(p.val[5] & 0xffff, 0xffff);
    assert_int_equal(p.st[6], tlm::TLM_OK_RESPONSE);
    assert_true(p.val[6] & NICTX_ERR_BAD_ACCESS);
    assert_int_equal(p.st[7], tlm::TLM_OK_RESPONSE);
    assert_int_equal(p.st[8], tlm::TLM_OK_RESPONSE);
    assert_int_equal(p.val[8], 5);
    assert_int_equal(p.nic.stats().mmio_errors, 6);
}

void test_systemc_dma_error(void **state)
{
    world *w = static_cast<world *>(*state);
    const nictx_vp_result &r = w->dma->result();

    print_message("DMA error on packet %" PRIu64 ": ERR 0x%x, %" PRIu64 " checked, %" PRIu64
                  " lost, status %d\n",
                  w->dma_fault_seq, r.dev_err, r.sb.checked, r.sb.lost, r.status);
    assert_int_equal(w->dma->mem.faults_fired(), 1);
    assert_true(w->dma->nic.stats().dma_read_errors >= 1);
    assert_true(r.dev_err & NICTX_ERR_DMA);
    // The frames before it went out intact; it never did; the engine
    // fetches no new descriptors until ERR is cleared, and this driver
    // has no hang check: the run ends on the watchdog.
    assert_int_equal(r.status, -1);
    assert_int_equal(r.sb.corrupted, 0);
    assert_true(r.sb.checked >= w->dma_fault_seq);
    assert_true(r.sb.lost >= 1);
    assert_int_equal(r.sb.checked + r.sb.lost, w->dma_cfg.packets);
    assert_true(r.frames == r.sb.checked);
}

// docs/systemc.md carries sc/example_instantiate.cpp verbatim, and it runs.
void test_systemc_example(void **state)
{
    (void)state;
    const char *bin = std::getenv("NICTX");
    std::string dir = bin && *bin ? std::string(bin).substr(0, std::string(bin).rfind('/') + 1)
                                  : std::string("./build/");
    char *src = slurp("sc/example_instantiate.cpp");
    char *doc = slurp("docs/systemc.md");
    assert_non_null(src);
    assert_non_null(doc);
    assert_non_null(std::strstr(doc, src));
    std::free(src);
    std::free(doc);

    std::string cmd = dir + "nictx-sc-example";
    FILE *f = popen(cmd.c_str(), "r");
    assert_non_null(f);
    char out[512] = "";
    size_t n = std::fread(out, 1, sizeof(out) - 1, f);
    out[n] = 0;
    assert_int_equal(pclose(f), 0);
    assert_non_null(std::strstr(out, "WB_THRESH reads 32 (ok)"));
}

// nictx-vp (next to $NICTX) takes numbers as nictx run does: strictly, within
// each setting's range; a run too short to measure prints n/a, not nan.
void test_systemc_vp_options(void **state)
{
    (void)state;
    const char *env = std::getenv("NICTX");
    std::string bin = env && *env ? std::string(env).substr(0, std::string(env).rfind('/') + 1)
                                  : std::string("./build/");
    bin += "nictx-vp";
    void *cs = nullptr;
    assert_int_equal(cli_setup(&cs), 0);
    struct cli *c = static_cast<struct cli *>(cs);
    c->bin = bin.c_str();
    struct run r;
    static const char *const bad[][3] = {
        {"--packets", "010", "leading zero"},       {"--packets", "0x10", "hex"},
        {"--pkt-size", "4294967360", "out of range"}, {"--pkt-size", "63", "64..16387"},
        {"--burst", "-1", "sign"},                  {"--quantum-ns", "0", "> 0"},
        {"--quantum-ns", "08", "leading zero"},
    };
    for (const auto &b : bad) {
        NICTX(c, &r, b[0], b[1]);
        expect_status(&r, 2);
        expect_has(r.err, b[2]);
        assert_null(std::strstr(r.out, "throughput"));
        run_free(&r);
    }
    NICTX(c, &r, "--packets", "1");
    expect_status(&r, 0);
    expect_has(r.out, "n/a Mpps");
    assert_null(std::strstr(r.out, "nan"));
    run_free(&r);
    cli_teardown(&cs);
}

} // namespace

int sc_main(int, char **) { return 0; } // libsystemc's main is not used

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_systemc_same_frames_as_native),
        cmocka_unit_test(test_systemc_same_frames_as_native_wc_w32),
        cmocka_unit_test(test_systemc_same_frames_as_native_irq),
        cmocka_unit_test(test_systemc_bar0_errors),
        cmocka_unit_test(test_systemc_dma_error),
        cmocka_unit_test(test_systemc_example),
        cmocka_unit_test(test_systemc_vp_options),
    };
    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
