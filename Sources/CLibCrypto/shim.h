// OpenSSL's libcrypto (Debian's libssl-dev): its EVP digests, SHA-256 and MD5, for checking files.
#include <openssl/evp.h>
