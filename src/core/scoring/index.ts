// Public API of the scoring model. The NSI loader (./nsi.ts) is not re-exported: it reads a file, import it
// explicitly from server code.
export * from './constants';
export * from './components';
export * from './brand-index';
export * from './analyze';
export * from './calibration';
export * from './profile';
