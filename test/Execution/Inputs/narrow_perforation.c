// Driver of narrow-perforation.mlir: each loop's iteration count.
#include <stdint.h>
#include <stdio.h>

int for_i8(int8_t ub);
int for_i8_step(int8_t lb, int8_t ub, int8_t step);
int for_i32_step(int32_t ub, int32_t step);
int while_i8(int8_t ub);
int for_u8(uint8_t ub);
int for_index_step(int64_t ub, int64_t step);
int trunc_i8(int8_t lb, int8_t ub);
int trunc_i64(int64_t lb, int64_t ub, int64_t step);
int trunc_start_index(int64_t lb, int64_t ub, int64_t step);

int main(void) {
  printf("for_i8 %d\n", for_i8(127));               // 0..126 by 1 (x100)
  printf("for_i8_step %d\n", for_i8_step(0, 27, 100)); // 100 x 2 > 127
  printf("for_i32_step %d\n", for_i32_step(1500000000, 1 << 29)); // x4 = 2^31
  printf("while_i8 %d\n", while_i8(127));           // i += 1 (x100) while i < 127
  printf("for_u8 %d\n", for_u8(255));               // 0..254 by 1 (x200)
  printf("for_index_step %d\n",                     // 2^61 x 8 = 2^64
         for_index_step(INT64_C(6) << 60, INT64_C(1) << 61));
  printf("trunc_i8 %d\n", trunc_i8(-100, 100));   // first half of 200
  // spans of 3 * 2^62 - 16 (past 2^63): 6 iterations of 2^61
  printf("trunc_i64 %d\n",                          // the first 3 of 6
         trunc_i64(INT64_MIN + 16, INT64_C(1) << 62, INT64_C(1) << 61));
  printf("trunc_start_index %d\n",                  // the last 2 of 6
         trunc_start_index(INT64_MIN + 16, INT64_C(1) << 62, INT64_C(1) << 61));
  return 0;
}
