/**
 * The console on AWS: web/dist in a private S3 bucket behind CloudFront (origin access control),
 * and the API paths routed through the same distribution to the HTTP API, so the console, its
 * session cookie and `/auth/*` share one origin (docs/authentication.md: HttpOnly SameSite cookie).
 *
 * Hashed files under assets/ are cached for a year; index.html is revalidated on every load and
 * invalidated on each deploy. Page paths without a file extension get index.html from a viewer-
 * request function (the SPA fallback); custom error responses are not used because they would also
 * replace the API's own 404 Problem Details.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { CfnOutput, Fn, RemovalPolicy, Stack } from 'aws-cdk-lib';
import type { IHttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import {
  AllowedMethods,
  CachePolicy,
  Distribution,
  Function as EdgeFunction,
  FunctionCode,
  FunctionEventType,
  FunctionRuntime,
  HttpVersion,
  OriginProtocolPolicy,
  OriginRequestPolicy,
  PriceClass,
  ResponseHeadersPolicy,
  ViewerProtocolPolicy,
} from 'aws-cdk-lib/aws-cloudfront';
import { HttpOrigin, S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import type { IFunction, Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { BlockPublicAccess, Bucket, BucketEncryption } from 'aws-cdk-lib/aws-s3';
import { BucketDeployment, CacheControl, Source } from 'aws-cdk-lib/aws-s3-deployment';
import { Construct } from 'constructs';
import { repoRoot } from './paths.ts';

/** Paths CloudFront sends to the HTTP API instead of the bucket (the local runtime's same split). */
export const apiPathPatterns = ['/api/*', '/public/*', '/auth/*', '/idp/*', '/openapi.json'] as const;

export const consoleDistDir = join(repoRoot, 'web', 'dist');

export interface ConsoleHostingProps {
  httpApi: IHttpApi;
  /**
   * Functions that must know the origin the browser sees (console SSO: redirect URI and cookie
   * attributes): their DOGU_PUBLIC_URL becomes this distribution's URL.
   */
  publicUrlFor?: Iterable<IFunction>;
  /** Keep the bucket when the stack is deleted (production). */
  retain?: boolean;
  /** The built console; `web/dist` by default, built first when missing or older than its sources. */
  distDir?: string;
  /** API behaviors that take precedence over the general ones (the execution route: decision 0055). */
  apiBehaviorsFirst?: Record<string, import('aws-cdk-lib/aws-cloudfront').BehaviorOptions>;
}

/** index.html for page paths (no file extension); files and API paths pass unchanged. */
export const spaFallback = `function handler(event) {
  var request = event.request;
  var last = request.uri.split('/').pop();
  if (last.indexOf('.') === -1) request.uri = '/index.html';
  return request;
}`;

export class ConsoleHosting extends Construct {
  readonly bucket: Bucket;
  readonly distribution: Distribution;
  /** `https://<id>.cloudfront.net`, the console's and (through it) the API's public origin. */
  readonly url: string;

  constructor(scope: Construct, id: string, props: ConsoleHostingProps) {
    super(scope, id);
    const distDir = props.distDir ?? ensureConsoleBuilt();
    if (!existsSync(join(distDir, 'index.html'))) {
      throw new Error(
        `The console build is missing: ${distDir}/index.html. Run \`npm run build:web\` first.`,
      );
    }

    this.bucket = new Bucket(this, 'Files', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      versioned: false,
      removalPolicy: props.retain ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
      autoDeleteObjects: !props.retain,
    });

    // The HTTP API's host name: https://<id>.execute-api.<region>.amazonaws.com → its third '/' part.
    const apiDomain = Fn.select(2, Fn.split('/', props.httpApi.apiEndpoint));
    const apiOrigin = new HttpOrigin(apiDomain, { protocolPolicy: OriginProtocolPolicy.HTTPS_ONLY });
    const apiBehavior = {
      origin: apiOrigin,
      viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
      allowedMethods: AllowedMethods.ALLOW_ALL,
      cachePolicy: CachePolicy.CACHING_DISABLED,
      // Cookies, Authorization, query strings and bodies reach the API; Host stays the API's own.
      originRequestPolicy: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
      compress: true,
    };

    const fallback = new EdgeFunction(this, 'SpaFallback', {
      code: FunctionCode.fromInline(spaFallback),
      runtime: FunctionRuntime.JS_2_0,
      comment: 'Dogu console: page paths get index.html',
    });

    this.distribution = new Distribution(this, 'Distribution', {
      comment: `Dogu console (${Stack.of(this).stackName})`,
      defaultRootObject: 'index.html',
      httpVersion: HttpVersion.HTTP2_AND_3,
      priceClass: PriceClass.PRICE_CLASS_200,
      defaultBehavior: {
        origin: S3BucketOrigin.withOriginAccessControl(this.bucket),
        viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        allowedMethods: AllowedMethods.ALLOW_GET_HEAD,
        cachePolicy: CachePolicy.CACHING_OPTIMIZED,
        responseHeadersPolicy: ResponseHeadersPolicy.SECURITY_HEADERS,
        compress: true,
        functionAssociations: [{ function: fallback, eventType: FunctionEventType.VIEWER_REQUEST }],
      },
      additionalBehaviors: {
        ...props.apiBehaviorsFirst,
        ...Object.fromEntries(apiPathPatterns.map((pattern) => [pattern, apiBehavior])),
      },
    });
    this.url = `https://${this.distribution.distributionDomainName}`;

    // Two passes over the same build: hashed assets cached for a year, then index.html uncached and
    // invalidated, so a deploy is visible at the next page load and old tabs keep their assets.
    const files = Source.asset(distDir);
    const assets = new BucketDeployment(this, 'DeployAssets', {
      destinationBucket: this.bucket,
      sources: [files],
      exclude: ['index.html'],
      prune: false,
      cacheControl: [CacheControl.fromString('public, max-age=31536000, immutable')],
      memoryLimit: 512,
    });
    const index = new BucketDeployment(this, 'DeployIndex', {
      destinationBucket: this.bucket,
      sources: [files],
      exclude: ['*'],
      include: ['index.html'],
      prune: false,
      cacheControl: [CacheControl.noCache()],
      distribution: this.distribution,
      distributionPaths: ['/index.html', '/'],
      memoryLimit: 512,
    });
    index.node.addDependency(assets);

    for (const fn of props.publicUrlFor ?? []) {
      (fn as LambdaFunction).addEnvironment('DOGU_PUBLIC_URL', this.url);
    }

    new CfnOutput(this, 'ConsoleUrl', {
      value: this.url,
      description: 'The console (and API) through CloudFront',
    });
  }
}

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'dist' || entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestMtime(path));
    else if (!/\.test\.tsx?$/.test(entry.name)) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

const builtAt = (distDir: string) => {
  try {
    return statSync(join(distDir, 'index.html')).mtimeMs;
  } catch {
    return 0;
  }
};

/**
 * Builds web/ when web/dist is missing or older than its sources, under the same lock directory as
 * the e2e harness (test/e2e/support/browser.ts), so parallel synths and tests never read half a build.
 */
export function ensureConsoleBuilt(): string {
  const webDir = join(repoRoot, 'web');
  const fresh = () => builtAt(consoleDistDir) > newestMtime(webDir);
  if (fresh()) return consoleDistDir;
  const lock = join(webDir, '.build-lock');
  const deadline = Date.now() + 120_000;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      if (Date.now() > deadline)
        throw new Error(`The console build lock ${lock} is held for 2 minutes; remove it if no build runs.`);
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100);
      if (fresh()) return consoleDistDir;
    }
  }
  try {
    if (!fresh()) {
      const vite = join(repoRoot, 'node_modules', 'vite', 'bin', 'vite.js');
      try {
        execFileSync(
          process.execPath,
          [vite, 'build', '--config', join(webDir, 'vite.config.ts'), '--logLevel', 'warn'],
          {
            cwd: repoRoot,
            stdio: ['ignore', 'ignore', 'pipe'],
            timeout: 120_000,
          },
        );
      } catch (error) {
        const stderr = (error as { stderr?: Buffer }).stderr?.toString().trim();
        throw new Error(
          `Building the console (web/) failed${stderr ? `: ${stderr}` : ''}. Run \`npm run build:web\` to see why.`,
        );
      }
    }
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
  return consoleDistDir;
}
