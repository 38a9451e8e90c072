/* SPDX-License-Identifier: MIT */
/* cipher.h — inside the file containers (not installed): AES-256 decryption as FileAccessEncrypted needs it, for
 * files.c and the benchmark (bench/files_read.c: AES alone). */
#ifndef GDWIRE_FILES_CIPHER_H
#define GDWIRE_FILES_CIPHER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* in[0..n) (n a multiple of 16; in and out apart) decrypted with AES-256 into out: CFB with 128-bit feedback from
 * iv (Godot 4), or ECB (Godot 3; iv unused). CFB decrypts in pieces: the next piece's iv is the last 16 bytes of
 * cipher text before it. false if libcrypto fails (or this build has none). */
bool gdw_files_decrypt(bool cfb, const uint8_t key[32], const uint8_t iv[16], const uint8_t *in, uint8_t *out, size_t n);

#endif
