/* SPDX-License-Identifier: Apache-2.0 */
/*
 * profile.h - named run profiles: INI files that set struct sim_cfg fields.
 *
 * What it models: nothing; it is configuration.  A profile is an INI file
 * (parsed with libinih) whose sections and keys name the parameters of a
 * platform generation: CPU costs, host, PCIe link, device and driver.  The
 * keys are the settings table's (sim/run/settings.h: each key's type, the
 * sim_cfg field it sets and its meaning); profile_load(), profile_set() and
 * profile_list_keys() all read that table (docs/profiles.md).
 *
 * Contract:
 *  - Keys are applied on top of the cfg's current values, in file order, so
 *    a later key overrides an earlier one and a key the file does not name
 *    keeps its value.
 *  - The parser checks syntax, types and names only: an unknown section or
 *    key, a number that is not strict decimal (no sign, no hex, no inf/nan,
 *    no trailing characters, finite, unsigned ones within 32 bits) and an
 *    unknown enum or link name are errors.  Ranges are sim_cfg_validate()'s
 *    job; the caller runs it after loading.
 *  - On error the functions return -1, leave *cfg untouched and write a
 *    one-line message to err (if err != NULL and errlen > 0; truncated,
 *    always NUL-terminated).
 *  - No global state; the functions may run concurrently on different cfgs.
 *    The INI parser is libinih (pkg-config module inih), used with its
 *    built-in defaults.
 */
#ifndef NICTX_PROFILE_H
#define NICTX_PROFILE_H

#include <stddef.h>
#include <stdio.h>

#include "run/harness.h"

/* Environment variable naming a further directory to look NAME.ini up in. */
#define PROFILE_DIR_ENV "NICTX_PROFILE_DIR"

/*
 * Load a profile.  `name_or_path` is either a path ending in ".ini", used
 * as given, or a NAME (letters, digits, '.', '_', '-'), looked up first as
 * profiles/NAME.ini relative to the current directory, then as
 * $NICTX_PROFILE_DIR/NAME.ini if that variable is set and not empty.
 * Applies every key to *cfg and records the profile's name (NAME, or the
 * file name without its directory and ".ini") in cfg->profile and its first
 * 15 characters in cfg->cpu_profile.
 * Returns 0; or -1 with a message naming the file, the line and the key,
 * e.g. "profiles/x.ini:12: unknown key cpu.foo", or naming the paths tried
 * when the profile is not found.
 */
int profile_load(struct sim_cfg *cfg, const char *name_or_path, char *err, size_t errlen);

/*
 * Apply one "section.key=value" assignment (as given to --set), with the
 * same keys and checks as a profile file; blanks around the key and the
 * value are ignored.  Does not change cfg->profile.
 * Returns 0; or -1 with a message such as
 * "--set cpu.nope=1: unknown key cpu.nope".
 */
int profile_set(struct sim_cfg *cfg, const char *assignment, char *err, size_t errlen);

/* Write every key, one per line: "section.key  type  meaning", by section. */
void profile_list_keys(FILE *f);

#endif /* NICTX_PROFILE_H */
