/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What every fuzz target shares. A target defines LLVMFuzzerTestOneInput();
 * built with -fsanitize=fuzzer it is a libFuzzer target, otherwise
 * fuzz-main.c's main() replays the files and directories named on its command
 * line, so each corpus runs as an ordinary test in every build.
 */
#ifndef DRVFILTER_FUZZ_H
#define DRVFILTER_FUZZ_H

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Report a broken invariant and abort, which both libFuzzer and CTest see. */
_Noreturn void fuzz_fail(const char *target, const char *what);

/* A NUL-terminated copy of @data (whatever NUL bytes it holds); abort without memory. */
char *fuzz_strndup(const uint8_t *data, size_t size);

/*
 * A fresh sysroot directory for targets that read a file from it, made once
 * per process and removed at exit; @rel (e.g. "proc/cmdline") gets @data.
 */
const char *fuzz_sysroot_file(const char *rel, const uint8_t *data, size_t size);

#endif
