// nictx_pkg: constants shared by the nictx transmit engine.
//
// TLP beat types on the device ports and the BAR0 register map.  The
// register offsets must match driver/nictx_hw.h (tests/test_limits.c reads
// every register through the simulated link).
package nictx_pkg;

  // TLP type on h2d_type_i / d2h_type_o.
  localparam logic [1:0] TlpMWr  = 2'd0;
  localparam logic [1:0] TlpMRd  = 2'd1;
  localparam logic [1:0] TlpCplD = 2'd2;
  localparam logic [1:0] TlpCpl  = 2'd3;  // completion without data: status not Successful

  // BAR0 register offsets (bytes).
  localparam logic [7:0] RegCtrl        = 8'h00;
  localparam logic [7:0] RegErr         = 8'h04;
  localparam logic [7:0] RegRingBaseLo  = 8'h08;
  localparam logic [7:0] RegRingBaseHi  = 8'h0C;
  localparam logic [7:0] RegRingLog2    = 8'h10;
  localparam logic [7:0] RegTail        = 8'h14;
  localparam logic [7:0] RegHead        = 8'h18;
  localparam logic [7:0] RegWbThresh    = 8'h1C;
  localparam logic [7:0] RegWbAddrLo    = 8'h20;
  localparam logic [7:0] RegWbAddrHi    = 8'h24;
  localparam logic [7:0] RegIrqThresh   = 8'h28;
  localparam logic [7:0] RegIrqData     = 8'h2C;
  localparam logic [7:0] RegIrqAddrLo   = 8'h30;
  localparam logic [7:0] RegIrqAddrHi   = 8'h34;
  localparam logic [7:0] RegMrrsLog2    = 8'h38;
  localparam logic [7:0] RegLineRate    = 8'h3C;
  localparam logic [7:0] RegCntPkts     = 8'h40;
  localparam logic [7:0] RegCntBytesLo  = 8'h44;
  localparam logic [7:0] RegCntBytesHi  = 8'h48;
  localparam logic [7:0] RegCntDoorbell = 8'h4C;
  localparam logic [7:0] RegCntDescRd   = 8'h50;
  localparam logic [7:0] RegCntDmaRd    = 8'h54;
  localparam logic [7:0] RegId          = 8'h58;
  localparam logic [7:0] RegDescFetchMax = 8'h5C;
  localparam logic [7:0] RegMaxTags     = 8'h60;
  localparam logic [7:0] RegMaxRdBytes  = 8'h64;
  localparam logic [7:0] RegCntRdStall  = 8'h68;
  localparam logic [7:0] RegProto       = 8'h6C;
  localparam logic [7:0] RegCntNotOwned = 8'h70;
  localparam logic [7:0] RegCntWc       = 8'h74;
  localparam logic [7:0] RegCntWcDrop   = 8'h78;
  localparam logic [7:0] RegStatus      = 8'h7C;
  localparam logic [7:0] RegCplTimeout  = 8'h80;

  // CTRL bits.
  localparam int unsigned CtrlEnable = 0;
  localparam int unsigned CtrlReset  = 1;  // write 1 while disabled: queue reset

  // STATUS bits.
  localparam int unsigned StatusQuiescent = 0;  // a queue reset now loses nothing
  localparam int unsigned StatusIdle      = 1;  // nothing in flight at all
  localparam int unsigned StatusResetting = 2;  // a queue reset waits for quiescence

  // Completion timeout reset value: 1 ms at 250 MHz, inside PCIe Completion
  // Timeout range A (50 us - 10 ms) and far above any queueing delay on a
  // starved link.
  localparam logic [23:0] CplTimeoutReset = 24'd250000;

  // Ownership protocols (RegProto).
  localparam logic [1:0] ProtoTail  = 2'd0;
  localparam logic [1:0] ProtoOwner = 2'd1;
  localparam logic [1:0] ProtoWc    = 2'd2;

  // Write-combining descriptor window in BAR0 (bytes 0x200..0x3FF).
  localparam logic [9:0] WcBase = 10'h200;

  localparam logic [31:0] IdValue = 32'h6e78_0001;

  // Error bits (RegErr, write 1 to clear).
  localparam int unsigned ErrTailRange = 0;
  localparam int unsigned ErrBadDesc   = 1;
  localparam int unsigned ErrBadAccess = 2;
  localparam int unsigned ErrDma       = 3;
  localparam int unsigned ErrDbOff     = 4;  // a doorbell while disabled: ignored
  localparam int unsigned ErrCfg       = 5;  // a change refused while enabled, or
                                             // enable with ring base 0
  localparam int unsigned ErrCplTimeout = 6; // a DMA read's completion never came
  localparam int unsigned ErrUnexpCpl  = 7;  // a completion for no outstanding read
  localparam int unsigned NumErr       = 8;

endpackage
