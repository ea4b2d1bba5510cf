// Vitest setup for component tests: unmount after each test (no globals mode, so Testing Library cannot do it itself).
import { afterEach } from 'vitest';
import { cleanup } from '@testing-library/react';

afterEach(() => cleanup());
