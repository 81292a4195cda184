#include <stdio.h>
int twice(int);
/* perforated by 2: one of the two additions runs */
int main(void) { printf("twice(5) = %d\n", twice(5)); return 0; }
