#include "AssayStructure.h"

#include <string.h>

#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>

/// 0: not known yet; 1: SSSE3 only; 2: AVX2, BMI1 and POPCNT too; 3: neither (no index).
static int known = 0;

static int level(void) {
    int current = __atomic_load_n(&known, __ATOMIC_RELAXED);
    if (current) return current;
    unsigned int eax, ebx, ecx, edx;
    current = 3;
    if (__get_cpuid(1, &eax, &ebx, &ecx, &edx) && (ecx & bit_SSSE3)) {
        current = 1;
        int popcnt = (ecx & bit_POPCNT) != 0;
        // AVX2 also needs the operating system to save the YMM registers (OSXSAVE, then XCR0).
        int osSavesYMM = 0;
        if (ecx & bit_OSXSAVE) {
            unsigned int low, high;
            __asm__("xgetbv" : "=a"(low), "=d"(high) : "c"(0));
            osSavesYMM = (low & 6) == 6;
        }
        if (popcnt && osSavesYMM && __get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx) && (ebx & bit_AVX2) &&
            (ebx & bit_BMI)) {
            current = 2;
        }
    }
    __atomic_store_n(&known, current, __ATOMIC_RELAXED);
    return current;
}

int assay_structural_index_available(void) { return level() != 3; }

/// The masks of one block of 64 bytes, bit i for byte i. Backslashes and control characters are
/// rare: their masks are made only for a block that has one. `high` is not 0 when a byte is 0x80
/// or more.
typedef struct {
    uint64_t quote, whitespace, op, backslash, control, high;
} block_masks;

// Whitespace by the low four bits: ' ' 0x20 at 0, '\t' 0x09, '\n' 0x0A, '\r' 0x0D; a byte of 0x80 or
// more looks up 0, which it is not. Operators with 0x20 set ('[' 0x5B becomes '{', ']' becomes '}'):
// ':' at 0xA, '{' at 0xB, ',' at 0xC, '}' at 0xD. 0x1A and 0x0C match too; they are control
// characters, which make the input invalid.
#define WHITESPACE_TABLE ' ', 0, 0, 0, 0, 0, 0, 0, 0, '\t', '\n', 0, 0, '\r', 0, 0
#define OP_TABLE 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, ':', '{', ',', '}', 0, 0

__attribute__((target("ssse3"))) static inline uint64_t mask16(__m128i matches, int shift) {
    return (uint64_t)(uint16_t)_mm_movemask_epi8(matches) << shift;
}

__attribute__((target("ssse3"))) static inline block_masks classify_ssse3(const uint8_t *bytes) {
    const __m128i whitespaceTable = _mm_setr_epi8(WHITESPACE_TABLE);
    const __m128i opTable = _mm_setr_epi8(OP_TABLE);
    const __m128i quote = _mm_set1_epi8('"');
    const __m128i backslash = _mm_set1_epi8('\\');
    const __m128i controlMax = _mm_set1_epi8(0x1F);
    const __m128i bit5 = _mm_set1_epi8(0x20);
    block_masks masks = {0, 0, 0, 0, 0, 0};
    __m128i v[4];
    __m128i rare = _mm_setzero_si128();
    __m128i high = _mm_setzero_si128();
    for (int i = 0; i < 4; i++) {
        v[i] = _mm_loadu_si128((const __m128i *)(bytes + 16 * i));
        __m128i lowered = _mm_or_si128(v[i], bit5);
        masks.quote |= mask16(_mm_cmpeq_epi8(v[i], quote), 16 * i);
        masks.whitespace |= mask16(_mm_cmpeq_epi8(_mm_shuffle_epi8(whitespaceTable, v[i]), v[i]), 16 * i);
        masks.op |= mask16(_mm_cmpeq_epi8(_mm_shuffle_epi8(opTable, lowered), lowered), 16 * i);
        // A backslash, or a byte of 0x1F or less (its maximum with 0x1F is 0x1F).
        rare = _mm_or_si128(rare, _mm_cmpeq_epi8(v[i], backslash));
        rare = _mm_or_si128(rare, _mm_cmpeq_epi8(_mm_max_epu8(v[i], controlMax), controlMax));
        high = _mm_or_si128(high, v[i]);
    }
    masks.high = (uint64_t)_mm_movemask_epi8(high);
    if (_mm_movemask_epi8(rare)) {
        for (int i = 0; i < 4; i++) {
            masks.backslash |= mask16(_mm_cmpeq_epi8(v[i], backslash), 16 * i);
            masks.control |= mask16(_mm_cmpeq_epi8(_mm_max_epu8(v[i], controlMax), controlMax), 16 * i);
        }
    }
    return masks;
}

__attribute__((target("avx2"))) static inline uint64_t mask32(__m256i matches, int shift) {
    return (uint64_t)(uint32_t)_mm256_movemask_epi8(matches) << shift;
}

__attribute__((target("avx2"))) static inline block_masks classify_avx2(const uint8_t *bytes) {
    // The shuffle looks up within each 16-byte lane: the tables twice.
    const __m256i whitespaceTable = _mm256_setr_epi8(WHITESPACE_TABLE, WHITESPACE_TABLE);
    const __m256i opTable = _mm256_setr_epi8(OP_TABLE, OP_TABLE);
    const __m256i quote = _mm256_set1_epi8('"');
    const __m256i backslash = _mm256_set1_epi8('\\');
    const __m256i controlMax = _mm256_set1_epi8(0x1F);
    const __m256i bit5 = _mm256_set1_epi8(0x20);
    block_masks masks = {0, 0, 0, 0, 0, 0};
    __m256i v[2];
    __m256i rare = _mm256_setzero_si256();
    __m256i high = _mm256_setzero_si256();
    for (int i = 0; i < 2; i++) {
        v[i] = _mm256_loadu_si256((const __m256i *)(bytes + 32 * i));
        __m256i lowered = _mm256_or_si256(v[i], bit5);
        masks.quote |= mask32(_mm256_cmpeq_epi8(v[i], quote), 32 * i);
        masks.whitespace |= mask32(_mm256_cmpeq_epi8(_mm256_shuffle_epi8(whitespaceTable, v[i]), v[i]), 32 * i);
        masks.op |= mask32(_mm256_cmpeq_epi8(_mm256_shuffle_epi8(opTable, lowered), lowered), 32 * i);
        rare = _mm256_or_si256(rare, _mm256_cmpeq_epi8(v[i], backslash));
        rare = _mm256_or_si256(rare, _mm256_cmpeq_epi8(_mm256_max_epu8(v[i], controlMax), controlMax));
        high = _mm256_or_si256(high, v[i]);
    }
    masks.high = (uint64_t)(uint32_t)_mm256_movemask_epi8(high);
    if (_mm256_movemask_epi8(rare)) {
        for (int i = 0; i < 2; i++) {
            masks.backslash |= mask32(_mm256_cmpeq_epi8(v[i], backslash), 32 * i);
            masks.control |= mask32(_mm256_cmpeq_epi8(_mm256_max_epu8(v[i], controlMax), controlMax), 32 * i);
        }
    }
    return masks;
}

// UTF-8 checked 16 or 32 bytes at a time by three table lookups on the high and low halves of each
// byte and the one before it (Keiser and Lemire, "Validating UTF-8 in less than one instruction per
// byte", 2021, as simdjson does it). Each table gives the errors a byte pair may be part of; an error
// is left only when all three agree; the 3rd and 4th bytes of longer sequences are checked apart.
#define TOO_SHORT (1 << 0)      /* 11______ 0_______ or 11______ 11______ */
#define TOO_LONG (1 << 1)       /* 0_______ 10______ */
#define OVERLONG_3 (1 << 2)     /* 11100000 100_____ */
#define TOO_LARGE (1 << 3)      /* 11110100 1001____ and above */
#define SURROGATE (1 << 4)      /* 11101101 101_____ */
#define OVERLONG_2 (1 << 5)     /* 1100000_ 10______ */
#define TOO_LARGE_1000 (1 << 6) /* 11110101 1000____ and above */
#define OVERLONG_4 (1 << 6)     /* 11110000 1000____ */
#define TWO_CONTS (1 << 7)      /* 10______ 10______ */
#define CARRY (TOO_SHORT | TOO_LONG | TWO_CONTS)
#define BYTE_1_HIGH                                                                                        \
    TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG, (char)TWO_CONTS,        \
        (char)TWO_CONTS, (char)TWO_CONTS, (char)TWO_CONTS, TOO_SHORT | OVERLONG_2, TOO_SHORT,                \
        TOO_SHORT | OVERLONG_3 | SURROGATE,                                                                \
        (char)(TOO_SHORT | TOO_LARGE | TOO_LARGE_1000 | OVERLONG_4)
#define BYTE_1_LOW                                                                                         \
    (char)(CARRY | OVERLONG_3 | OVERLONG_2 | OVERLONG_4), (char)(CARRY | OVERLONG_2), (char)CARRY,         \
        (char)CARRY, (char)(CARRY | TOO_LARGE), (char)(CARRY | TOO_LARGE | TOO_LARGE_1000),                \
        (char)(CARRY | TOO_LARGE | TOO_LARGE_1000), (char)(CARRY | TOO_LARGE | TOO_LARGE_1000),            \
        (char)(CARRY | TOO_LARGE | TOO_LARGE_1000), (char)(CARRY | TOO_LARGE | TOO_LARGE_1000),            \
        (char)(CARRY | TOO_LARGE | TOO_LARGE_1000), (char)(CARRY | TOO_LARGE | TOO_LARGE_1000),            \
        (char)(CARRY | TOO_LARGE | TOO_LARGE_1000), (char)(CARRY | TOO_LARGE | TOO_LARGE_1000 | SURROGATE), \
        (char)(CARRY | TOO_LARGE | TOO_LARGE_1000), (char)(CARRY | TOO_LARGE | TOO_LARGE_1000)
#define BYTE_2_HIGH                                                                                        \
    TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT,                \
        (char)(TOO_LONG | OVERLONG_2 | TWO_CONTS | OVERLONG_3 | TOO_LARGE_1000 | OVERLONG_4),              \
        (char)(TOO_LONG | OVERLONG_2 | TWO_CONTS | OVERLONG_3 | TOO_LARGE),                                \
        (char)(TOO_LONG | OVERLONG_2 | TWO_CONTS | SURROGATE | TOO_LARGE),                                 \
        (char)(TOO_LONG | OVERLONG_2 | TWO_CONTS | SURROGATE | TOO_LARGE), TOO_SHORT, TOO_SHORT, TOO_SHORT, \
        TOO_SHORT

/// The UTF-8 errors of 16 bytes, given the 16 before them.
__attribute__((target("ssse3"))) static inline __m128i utf8_errors16(__m128i input, __m128i previous) {
    const __m128i low4 = _mm_set1_epi8(0x0F);
    __m128i prev1 = _mm_alignr_epi8(input, previous, 15);
    __m128i byte1High = _mm_shuffle_epi8(_mm_setr_epi8(BYTE_1_HIGH), _mm_and_si128(_mm_srli_epi16(prev1, 4), low4));
    __m128i byte1Low = _mm_shuffle_epi8(_mm_setr_epi8(BYTE_1_LOW), _mm_and_si128(prev1, low4));
    __m128i byte2High = _mm_shuffle_epi8(_mm_setr_epi8(BYTE_2_HIGH), _mm_and_si128(_mm_srli_epi16(input, 4), low4));
    __m128i special = _mm_and_si128(_mm_and_si128(byte1High, byte1Low), byte2High);
    // The third and fourth bytes of longer sequences must be continuations (which `special` then
    // marks as TWO_CONTS): exactly where the pair check says two continuations follow each other.
    __m128i third = _mm_subs_epu8(_mm_alignr_epi8(input, previous, 14), _mm_set1_epi8((char)(0xE0 - 0x80)));
    __m128i fourth = _mm_subs_epu8(_mm_alignr_epi8(input, previous, 13), _mm_set1_epi8((char)(0xF0 - 0x80)));
    __m128i must23 = _mm_and_si128(_mm_or_si128(third, fourth), _mm_set1_epi8((char)0x80));
    return _mm_xor_si128(must23, special);
}

/// Non-zero bytes where the last bytes of `input` start a sequence that needs bytes after them.
__attribute__((target("ssse3"))) static inline __m128i utf8_incomplete16(__m128i input) {
    const __m128i limits = _mm_setr_epi8(
        (char)255, (char)255, (char)255, (char)255, (char)255, (char)255, (char)255, (char)255, (char)255,
        (char)255, (char)255, (char)255, (char)255, (char)(0xF0 - 1), (char)(0xE0 - 1), (char)(0xC0 - 1));
    return _mm_subs_epu8(input, limits);
}

/// The UTF-8 errors of 32 bytes, given the 32 before them.
__attribute__((target("avx2"))) static inline __m256i utf8_errors32(__m256i input, __m256i previous) {
    const __m256i low4 = _mm256_set1_epi8(0x0F);
    // The 32 bytes that end one, two, three bytes before `input`'s.
    __m256i shifted = _mm256_permute2x128_si256(previous, input, 0x21);
    __m256i prev1 = _mm256_alignr_epi8(input, shifted, 15);
    __m256i byte1High = _mm256_shuffle_epi8(
        _mm256_setr_epi8(BYTE_1_HIGH, BYTE_1_HIGH), _mm256_and_si256(_mm256_srli_epi16(prev1, 4), low4));
    __m256i byte1Low = _mm256_shuffle_epi8(_mm256_setr_epi8(BYTE_1_LOW, BYTE_1_LOW), _mm256_and_si256(prev1, low4));
    __m256i byte2High = _mm256_shuffle_epi8(
        _mm256_setr_epi8(BYTE_2_HIGH, BYTE_2_HIGH), _mm256_and_si256(_mm256_srli_epi16(input, 4), low4));
    __m256i special = _mm256_and_si256(_mm256_and_si256(byte1High, byte1Low), byte2High);
    __m256i third = _mm256_subs_epu8(_mm256_alignr_epi8(input, shifted, 14), _mm256_set1_epi8((char)(0xE0 - 0x80)));
    __m256i fourth = _mm256_subs_epu8(_mm256_alignr_epi8(input, shifted, 13), _mm256_set1_epi8((char)(0xF0 - 0x80)));
    __m256i must23 = _mm256_and_si256(_mm256_or_si256(third, fourth), _mm256_set1_epi8((char)0x80));
    return _mm256_xor_si256(must23, special);
}

__attribute__((target("avx2"))) static inline __m256i utf8_incomplete32(__m256i input) {
    const __m256i limits = _mm256_setr_epi8(
        (char)255, (char)255, (char)255, (char)255, (char)255, (char)255, (char)255, (char)255, (char)255,
        (char)255, (char)255, (char)255, (char)255, (char)255, (char)255, (char)255, (char)255, (char)255,
        (char)255, (char)255, (char)255, (char)255, (char)255, (char)255, (char)255, (char)255, (char)255,
        (char)255, (char)255, (char)(0xF0 - 1), (char)(0xE0 - 1), (char)(0xC0 - 1));
    return _mm256_subs_epu8(input, limits);
}

/// Checks one 64-byte block as UTF-8 after the block before it (`before`, its last bytes; none for
/// the first); returns whether a sequence is left open at its end. Errors are or-ed into `error`.
__attribute__((target("ssse3"))) static inline int utf8_block_ssse3(
    const uint8_t *block, const uint8_t *before, int *error
) {
    __m128i previous = before ? _mm_loadu_si128((const __m128i *)(before - 16)) : _mm_setzero_si128();
    __m128i errors = _mm_setzero_si128();
    __m128i input = previous;
    for (int i = 0; i < 4; i++) {
        input = _mm_loadu_si128((const __m128i *)(block + 16 * i));
        errors = _mm_or_si128(errors, utf8_errors16(input, previous));
        previous = input;
    }
    if (_mm_movemask_epi8(_mm_cmpeq_epi8(errors, _mm_setzero_si128())) != 0xFFFF) *error = 1;
    __m128i open = utf8_incomplete16(input);
    return _mm_movemask_epi8(_mm_cmpeq_epi8(open, _mm_setzero_si128())) != 0xFFFF;
}

__attribute__((target("avx2"))) static inline int utf8_block_avx2(
    const uint8_t *block, const uint8_t *before, int *error
) {
    __m256i previous = before ? _mm256_loadu_si256((const __m256i *)(before - 32)) : _mm256_setzero_si256();
    __m256i input0 = _mm256_loadu_si256((const __m256i *)block);
    __m256i input1 = _mm256_loadu_si256((const __m256i *)(block + 32));
    __m256i errors = _mm256_or_si256(utf8_errors32(input0, previous), utf8_errors32(input1, input0));
    if (!_mm256_testz_si256(errors, errors)) *error = 1;
    __m256i open = utf8_incomplete32(input1);
    return !_mm256_testz_si256(open, open);
}

/// The bytes escaped by a backslash in a block: each backslash not itself escaped escapes the byte
/// after it. `carry` is 1 when the block's first byte is escaped by the last byte of the one before.
static inline uint64_t escaped_bytes(uint64_t backslash, uint64_t *carry) {
    uint64_t escaped = 0;
    uint64_t pending = backslash;
    if (*carry) {
        escaped = 1;
        pending &= ~(uint64_t)1;
        *carry = 0;
    }
    while (pending) {
        int at = __builtin_ctzll(pending);
        if (at == 63) {
            *carry = 1;
            break;
        }
        escaped |= (uint64_t)1 << (at + 1);
        pending &= ~((uint64_t)3 << at);
    }
    return escaped;
}

/// Bit i set when an odd number of bits at or below i are set.
static inline uint64_t prefix_xor(uint64_t bits) {
    bits ^= bits << 1;
    bits ^= bits << 2;
    bits ^= bits << 4;
    bits ^= bits << 8;
    bits ^= bits << 16;
    bits ^= bits << 32;
    return bits;
}

/// The pass itself, for one way of classifying a block (the same code for SSSE3 and AVX2, each
/// compiled for its instructions). `WRITE_POSITIONS` appends the offsets of `structural`'s bits.
#define INDEX_BODY(CLASSIFY, UTF8_BLOCK, WRITE_POSITIONS)                                                  \
    assay_structure result = {0, 0};                                                                       \
    size_t count = 0;                                                                                      \
    uint64_t escapeCarry = 0;                                                                              \
    uint64_t inStringCarry = 0; /* all ones when the block before ended inside a string */                 \
    uint64_t scalarCarry = 0;   /* 1 when the block before ended with a byte of a scalar */                \
    uint64_t anyBackslash = 0, invalid = 0;                                                                \
    int seenHigh = 0, utf8Open = 0, utf8Error = 0;                                                         \
    uint8_t tail[64];                                                                                      \
    for (size_t start = 0; start < length; start += 64) {                                                  \
        const uint8_t *block = bytes + start;                                                              \
        size_t available = length - start;                                                                 \
        if (available < 64) {                                                                              \
            memset(tail, ' ', sizeof tail);                                                                \
            memcpy(tail, block, available);                                                                \
            block = tail;                                                                                  \
        }                                                                                                  \
        block_masks masks = CLASSIFY(block);                                                               \
        /* UTF-8 only where a byte is 0x80 or more, or a sequence left open in the block before */         \
        /* continues (the bytes before a block are the input's; a short last block is a copy). */          \
        if (masks.high | utf8Open) {                                                                       \
            seenHigh |= masks.high != 0;                                                                   \
            utf8Open = UTF8_BLOCK(block, start ? bytes + start : NULL, &utf8Error);                        \
        }                                                                                                  \
        anyBackslash |= masks.backslash;                                                                   \
        uint64_t quote = masks.quote;                                                                      \
        if (masks.backslash | escapeCarry) quote &= ~escaped_bytes(masks.backslash, &escapeCarry);        \
        /* Opening quotes and the bytes inside strings; not the closing quotes. */                         \
        uint64_t inString = prefix_xor(quote) ^ inStringCarry;                                             \
        inStringCarry = (uint64_t)((int64_t)inString >> 63);                                               \
        uint64_t outside = ~inString & ~quote;                                                             \
        uint64_t op = masks.op & outside;                                                                  \
        uint64_t scalar = outside & ~masks.op & ~masks.whitespace;                                         \
        uint64_t starts = scalar & ~(scalar << 1 | scalarCarry);                                           \
        scalarCarry = scalar >> 63;                                                                        \
        invalid |= (masks.control & inString) | (masks.control & ~masks.whitespace);                       \
        uint64_t structural = op | quote | starts;                                                         \
        WRITE_POSITIONS                                                                                    \
    }                                                                                                      \
    result.count = count;                                                                                  \
    if (anyBackslash) result.flags |= ASSAY_STRUCTURE_BACKSLASH;                                           \
    if (seenHigh) result.flags |= ASSAY_STRUCTURE_NON_ASCII;                                               \
    if (invalid || inStringCarry || utf8Error || utf8Open) result.flags |= ASSAY_STRUCTURE_INVALID;        \
    return result;

/// One position a bit, lowest first.
#define WRITE_EACH                                                                                         \
    while (structural) {                                                                                   \
        positions[count++] = (uint32_t)(start + (size_t)__builtin_ctzll(structural));                      \
        structural &= structural - 1;                                                                      \
    }

/// Four positions a step, without a branch per bit: `_tzcnt_u64` of 0 is 64, so the up to three
/// written past the last bit are offsets the next block overwrites or the count leaves out.
#define WRITE_FOUR_AT_A_TIME                                                                               \
    if (structural) {                                                                                      \
        int bits = (int)_mm_popcnt_u64(structural);                                                        \
        uint32_t *out = positions + count;                                                                 \
        uint32_t base = (uint32_t)start;                                                                   \
        for (int i = 0; i < bits; i += 4) {                                                                \
            out[i] = base + (uint32_t)_tzcnt_u64(structural);                                              \
            structural = _blsr_u64(structural);                                                            \
            out[i + 1] = base + (uint32_t)_tzcnt_u64(structural);                                          \
            structural = _blsr_u64(structural);                                                            \
            out[i + 2] = base + (uint32_t)_tzcnt_u64(structural);                                          \
            structural = _blsr_u64(structural);                                                            \
            out[i + 3] = base + (uint32_t)_tzcnt_u64(structural);                                          \
            structural = _blsr_u64(structural);                                                            \
        }                                                                                                  \
        count += (size_t)bits;                                                                             \
    }

__attribute__((target("ssse3"))) static assay_structure index_ssse3(
    const uint8_t *bytes, size_t length, uint32_t *positions
) {
    INDEX_BODY(classify_ssse3, utf8_block_ssse3, WRITE_EACH)
}

__attribute__((target("avx2,bmi,popcnt"))) static assay_structure index_avx2(
    const uint8_t *bytes, size_t length, uint32_t *positions
) {
    INDEX_BODY(classify_avx2, utf8_block_avx2, WRITE_FOUR_AT_A_TIME)
}

assay_structure assay_structural_index(const uint8_t *bytes, size_t length, uint32_t *positions) {
    return assay_structural_index_at_level(0, bytes, length, positions);
}

assay_structure assay_structural_index_at_level(
    int requested, const uint8_t *bytes, size_t length, uint32_t *positions
) {
    int available = level();
    switch (requested == 1 && available == 2 ? 1 : available) {
    case 2:
        return index_avx2(bytes, length, positions);
    case 1:
        return index_ssse3(bytes, length, positions);
    default: {
        assay_structure none = {0, ASSAY_STRUCTURE_INVALID};
        return none;
    }
    }
}

#else

int assay_structural_index_available(void) { return 0; }

assay_structure assay_structural_index(const uint8_t *bytes, size_t length, uint32_t *positions) {
    return assay_structural_index_at_level(0, bytes, length, positions);
}

assay_structure assay_structural_index_at_level(
    int requested, const uint8_t *bytes, size_t length, uint32_t *positions
) {
    (void)requested;
    (void)bytes;
    (void)length;
    (void)positions;
    assay_structure none = {0, ASSAY_STRUCTURE_INVALID};
    return none;
}

#endif
