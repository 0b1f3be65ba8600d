/** Style sheets imported by the app (Vite bundles them). */
declare module '*.css';
