// Botan 2's Skein-512 behind a C interface for the peer benchmark. The hash
// object is made once per (output size) and reused: `final` resets it, which
// is how a Botan user hashes many messages.
#include <botan/hash.h>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>

extern "C" void *botan_skein_new(const char *name) {
    return Botan::HashFunction::create_or_throw(name).release();
}

extern "C" void botan_skein_hash(void *h, const uint8_t *data, size_t len, uint8_t *out) {
    auto *f = static_cast<Botan::HashFunction *>(h);
    f->update(data, len);
    f->final(out);
}

extern "C" size_t botan_skein_output_len(void *h) {
    return static_cast<Botan::HashFunction *>(h)->output_length();
}
