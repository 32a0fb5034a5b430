// swagger-ui-dist ships no types; this is the slice of its API the docs tab uses.
declare module "swagger-ui-dist/swagger-ui-es-bundle.js" {
  type SwaggerRequest = { url: string; headers: Record<string, string>; method?: string };
  type SwaggerOptions = {
    domNode: HTMLElement;
    spec?: object;
    url?: string;
    deepLinking?: boolean;
    docExpansion?: "list" | "full" | "none";
    defaultModelsExpandDepth?: number;
    displayRequestDuration?: boolean;
    persistAuthorization?: boolean;
    tryItOutEnabled?: boolean;
    requestSnippetsEnabled?: boolean;
    plugins?: (() => object)[];
    requestInterceptor?: (req: SwaggerRequest) => SwaggerRequest;
    onComplete?: () => void;
  };
  type SwaggerUiInstance = { preauthorizeApiKey: (scheme: string, value: string) => void };
  const SwaggerUIBundle: (options: SwaggerOptions) => SwaggerUiInstance;
  export default SwaggerUIBundle;
}

declare module "swagger-ui-dist/swagger-ui.css";
