export { default } from '@mocap/vitest-config';
