/**
 * The entry of index.html's inline start script (./start.ts), built by web/build.ts after the
 * app, which puts the app's built file in for __APP_URL__ (a Vite `define`).
 */
import { startSite } from "./start";

declare const __APP_URL__: string;

startSite(() => import(/* @vite-ignore */ __APP_URL__));
