#ifndef ASSAY_STRUCTURE_H
#define ASSAY_STRUCTURE_H

#include <stddef.h>
#include <stdint.h>

/// The input has a backslash (in a string or not).
#define ASSAY_STRUCTURE_BACKSLASH 1u
/// The input has a byte of 0x80 or more.
#define ASSAY_STRUCTURE_NON_ASCII 2u
/// The input cannot be valid JSON: a control character in a string or outside one (other than the
/// four whitespace characters), a string that is not closed, or bytes that are not UTF-8.
#define ASSAY_STRUCTURE_INVALID 4u

/// How many positions past the last one `assay_structural_index` may write (and then overwrite or
/// leave unused): a positions buffer has room for `length + ASSAY_STRUCTURE_SLACK` offsets.
#define ASSAY_STRUCTURE_SLACK 8

/// What `assay_structural_index` found.
typedef struct {
    /// How many positions were written.
    size_t count;
    /// `ASSAY_STRUCTURE_*` flags.
    uint32_t flags;
} assay_structure;

/// Whether `assay_structural_index` can run on this processor (x86-64 with SSSE3; not elsewhere).
int assay_structural_index_available(void);

/// Finds the structural positions of a JSON text in one pass over its bytes, 64 at a time (with
/// AVX2 where the processor has it, else SSSE3): the offsets of `{ } [ ] : ,` outside strings, of
/// every quote that opens or closes a string, and of the first byte of every other token (a
/// number, a literal, or any stray byte), in order. Quotes escaped by an odd run of backslashes
/// are not positions. The blocks with a byte of 0x80 or more are checked as UTF-8 (RFC 3629: no
/// overlong forms, no surrogates, nothing above U+10FFFF) on the way. `positions` has room for `length + ASSAY_STRUCTURE_SLACK` offsets; `length`
/// is less than 2^32.
///
/// The positions are a guide, not a verdict: a parser that follows them still checks every token,
/// and every byte between tokens is whitespace unless `ASSAY_STRUCTURE_INVALID` is set.
assay_structure assay_structural_index(const uint8_t *bytes, size_t length, uint32_t *positions);

/// `assay_structural_index` with SSSE3 even where AVX2 is there (`requested` 1, for tests that
/// check both), or the best the processor has (0).
assay_structure assay_structural_index_at_level(
    int requested, const uint8_t *bytes, size_t length, uint32_t *positions);

#endif
