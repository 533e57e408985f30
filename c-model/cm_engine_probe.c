/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cm_engine_probe.c - the engine's clock with the waveform's values
 * (cm_engine_step_probe, cm_probe.h): cm_engine.c compiled again with its
 * probe on, so that cm_engine_step, which every run uses, carries none of
 * it (not even a branch).
 */
#define CM_ENGINE_PROBE 1
#include "cm_engine.c"
