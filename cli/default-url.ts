/** Where the CLI looks for Dogu unless --url or DOGU_URL says otherwise: `npm start`'s default. */
export const cliDefaultUrl = 'http://127.0.0.1:8787';
