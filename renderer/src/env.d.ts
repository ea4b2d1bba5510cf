// Ambient types for the renderer build: Vite's CSS side-effect imports.
declare module '*.css';
