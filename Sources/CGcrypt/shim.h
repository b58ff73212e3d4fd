#ifndef REFRAIN_CGCRYPT_SHIM_H
#define REFRAIN_CGCRYPT_SHIM_H
// libgcrypt's message digests, for Last.fm's MD5 request signatures. libpulse already loads
// libgcrypt, so linking it maps nothing new.
#include <gcrypt.h>
#endif
