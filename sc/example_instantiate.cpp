// SPDX-License-Identifier: Apache-2.0
// example_instantiate.cpp - nictx_sc in a platform of your own: a memory
// target for its DMA, a signal for its interrupt, a reader for its wire,
// and a CPU thread that reads and writes its registers over BAR0.
// docs/systemc.md shows this file verbatim; make test builds and runs it.
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include <cstdio>
#include <cstring>
#include <vector>

#include "nictx_sc.h"

extern "C" {
#include "nictx_hw.h" // NICTX_REG_* offsets
}

// Host memory at bus address 0x1'0000'0000 with a 350 ns read latency.
struct example_ram : sc_core::sc_module {
    tlm_utils::simple_target_socket<example_ram> socket {"socket"};
    std::vector<unsigned char> bytes = std::vector<unsigned char>(1 << 20);
    static constexpr uint64_t base = 0x100000000ull;

    explicit example_ram(sc_core::sc_module_name n) : sc_module(n)
    {
        socket.register_b_transport(this, &example_ram::b_transport);
    }
    void b_transport(tlm::tlm_generic_payload &gp, sc_core::sc_time &delay)
    {
        uint64_t a = gp.get_address();
        if (a < base || a - base + gp.get_data_length() > bytes.size()) {
            gp.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE); // the NIC sees UR
            return;
        }
        unsigned char *p = &bytes[a - base];
        if (gp.is_read()) {
            std::memcpy(gp.get_data_ptr(), p, gp.get_data_length());
            delay += sc_core::sc_time(350, sc_core::SC_NS);
        } else {
            std::memcpy(p, gp.get_data_ptr(), gp.get_data_length());
        }
        gp.set_response_status(tlm::TLM_OK_RESPONSE);
    }
};

struct example_soc : sc_core::sc_module {
    tlm_utils::simple_initiator_socket<example_soc> cpu {"cpu"};
    example_ram ram {"ram"};
    nictx_sc nic;
    sc_core::sc_signal<bool> irq {"irq"};

    SC_HAS_PROCESS(example_soc);
    example_soc(sc_core::sc_module_name n, const nictx_sc_cfg &cfg) : sc_module(n), nic("nic", cfg)
    {
        cpu.bind(nic.bar0);     // MMIO: offsets into BAR0
        nic.dma.bind(ram.socket); // the NIC's DMA reads and writes
        nic.irq.bind(irq);      // MSI-X, one pulse per message
        SC_THREAD(software);
        SC_THREAD(wire_reader);
    }

    tlm::tlm_response_status mmio(tlm::tlm_command cmd, uint32_t off, uint32_t *val)
    {
        tlm::tlm_generic_payload gp;
        sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
        gp.set_command(cmd);
        gp.set_address(off);
        gp.set_data_ptr(reinterpret_cast<unsigned char *>(val));
        gp.set_data_length(4);
        gp.set_streaming_width(4);
        cpu->b_transport(gp, delay);
        sc_core::wait(delay);
        return gp.get_response_status();
    }

    void software()
    {
        uint32_t v = 32, head = 1;
        mmio(tlm::TLM_WRITE_COMMAND, NICTX_REG_WB_THRESH, &v); // posted write
        v = 0;
        tlm::tlm_response_status st = mmio(tlm::TLM_READ_COMMAND, NICTX_REG_WB_THRESH, &v);
        mmio(tlm::TLM_READ_COMMAND, NICTX_REG_HEAD, &head);
        std::printf("example: WB_THRESH reads %u (%s), HEAD %u, at %s\n", v,
                    st == tlm::TLM_OK_RESPONSE ? "ok" : "error", head,
                    sc_core::sc_time_stamp().to_string().c_str());
    }

    void wire_reader()
    {
        for (;;) {
            nictx_sc_frame f = nic.wire.read();
            std::printf("frame of %zu bytes at %s\n", f.data.size(), f.start.to_string().c_str());
        }
    }
};

int sc_main(int, char **)
{
    nictx_sc_cfg cfg;      // 8 bytes per clock at 250 MHz, Gen3 x8
    cfg.width = 32;        // any width nictx builds: 8, 16, 32, 64
    example_soc soc("soc", cfg);
    sc_core::sc_start();   // ends when nothing is left to do: an idle NIC costs nothing
    return 0;
}
