/**
 * The scale-out tests' load balancer: each test file starts its own nginx in front of its replicas
 * and stops it. The implementation is the scale-out example's.
 */
export { startNginx } from '../../examples/scale/nginx';
export type { NginxOptions, TestNginx } from '../../examples/scale/nginx';
