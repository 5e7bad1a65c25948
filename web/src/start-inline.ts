/**
 * The entry of index.html's inline start script (./start.ts), built by web/build.ts after the
 * app, which puts the app's built file in for __APP_URL__ and the other routes' prerendered page
 * files for __ROUTE_PAGES__ (Vite `define`s).
 */
import { startSite } from "./start";

declare const __APP_URL__: string;
declare const __ROUTE_PAGES__: Readonly<Record<string, string>>;

startSite(() => import(/* @vite-ignore */ __APP_URL__), __ROUTE_PAGES__);
