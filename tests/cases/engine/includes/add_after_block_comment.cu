/* license
 * text
 */
__device__ int f();
