/*
 * fixture_json.h: the little JSON the fixture plugins read, written once for
 * all of them (each compiles its own copy; nothing is linked).
 */
#ifndef FIXTURE_JSON_H
#define FIXTURE_JSON_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Finds "amount":"…" in the body and copies it, NUL-terminated, into `out`;
 * enough JSON for a fixture. Returns 1 when found and it fits, else 0. */
static inline int extract_amount(const uint8_t *body, size_t length, char *out, size_t capacity) {
    static const char key[] = "\"amount\":\"";
    size_t key_length = sizeof(key) - 1;
    for (size_t i = 0; i + key_length <= length; i++) {
        if (memcmp(body + i, key, key_length) != 0) continue;
        size_t start = i + key_length, end = start;
        while (end < length && body[end] != '"') end++;
        if (end == length || end - start + 1 > capacity || end == start) return 0;
        memcpy(out, body + start, end - start);
        out[end - start] = '\0';
        return 1;
    }
    return 0;
}

#endif /* FIXTURE_JSON_H */
