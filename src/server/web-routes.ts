/**
 * The routes behind the web page: the page and its assets (`/`, `/docs`, `/assets/…`), the map's
 * tiles and info (`/v1/map/…`), and the demo key for a browser on the same machine. app.ts asks
 * `route` first for every path and handles the API itself when it answers false.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AccountStore } from '../accounts/index.ts';
import { DEMO_KEY_PATH, serveDemoKey } from './demo-key.ts';
import { MapInfo } from './map/map-info.ts';
import { MAP_TILE_PATH, MapTiles } from './map/map-tiles.ts';
import { sendJson } from './send.ts';
import type { TrustedProxies } from './trusted-proxies.ts';
import { WebAssets } from './web-assets.ts';
import { ApiError } from '../contract/errors.ts';

export interface WebDeps {
  /** dist/web, as the build wrote it. */
  assetsDir: string;
  storePath: string;
  premiumPath: string;
  demoKeyFile: string;
  /** CITY_MAP_STYLE_URL, or null. */
  mapStyleUrl: string | null;
}

export class WebRoutes {
  private readonly assets: WebAssets;
  private readonly tiles: MapTiles;
  private readonly info: MapInfo;

  constructor(
    private readonly deps: WebDeps,
    private readonly accounts: AccountStore,
    private readonly trustedProxies?: TrustedProxies,
  ) {
    const styleOrigin = deps.mapStyleUrl ? new URL(deps.mapStyleUrl).origin : null;
    // a configured base map fetches its tiles, glyphs and sprites from wherever its style says
    this.assets = new WebAssets({ dir: deps.assetsDir, extraConnectOrigins: styleOrigin ? [styleOrigin, 'https:'] : [] });
    this.tiles = new MapTiles({ storePath: deps.storePath });
    this.info = new MapInfo({ storePath: deps.storePath, premiumPath: deps.premiumPath, styleUrl: deps.mapStyleUrl });
  }

  /** Answers `path` when it is one of these routes; false otherwise. */
  async route(req: IncomingMessage, res: ServerResponse, path: string): Promise<boolean> {
    let tile: RegExpExecArray | null;
    if (this.assets.handles(path)) this.assets.serve(req, res, path);
    else if ((tile = MAP_TILE_PATH.exec(path))) this.tiles.serve(req, res, tile);
    else if (path === '/v1/map/info.json') {
      if (req.method !== 'GET' && req.method !== 'HEAD')
        throw new ApiError('method_not_allowed', 'This resource only answers GET, HEAD.', [], { Allow: 'GET, HEAD' });
      sendJson(res, 200, this.info.info(), { 'cache-control': 'no-cache' });
    } else if (path === DEMO_KEY_PATH)
      await serveDemoKey(req, res, { keyFile: this.deps.demoKeyFile, accounts: this.accounts, trustedProxies: this.trustedProxies });
    else return false;
    return true;
  }

  close(): void {
    this.tiles.close();
  }
}
