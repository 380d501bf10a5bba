/*
 * libskein_simd: the integer types of the Skein reference code's
 * skein_port.h, for programs that include it directly. skein.h includes it.
 */
#ifndef _SKEIN_PORT_H_
#define _SKEIN_PORT_H_

#include <stddef.h>
#include <stdint.h>

typedef unsigned int uint_t; /* native unsigned integer */
typedef uint8_t u08b_t;      /* 8-bit unsigned integer */
typedef uint64_t u64b_t;     /* 64-bit unsigned integer */

#endif /* _SKEIN_PORT_H_ */
