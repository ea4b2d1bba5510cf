// Vitest setup for component tests: unmount after each test (no globals mode, so Testing Library cannot do it itself),
// and forget what the window kept in localStorage (the open conversation per folder, the language) between tests.
import { afterEach } from 'vitest';
import { cleanup } from '@testing-library/react';

afterEach(() => {
  cleanup();
  localStorage.clear();
});
