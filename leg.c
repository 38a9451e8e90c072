#include <stdio.h>
#include <zstd.h>
int main(void){ unsigned char f[]={0x27,0xB5,0x2F,0xFD, 0,0,0,0}; printf("isFrame(v0.7 magic)=%u\n", ZSTD_isFrame(f, sizeof f)); }
