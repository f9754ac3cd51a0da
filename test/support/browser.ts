/**
 * A tiny scripted browser for login flows: follows redirects by hand, keeps
 * cookies (by name, across ports, as browsers do for one host), and signs in
 * at the development IdP's login form (oidc-provider devInteractions).
 */
export class Browser {
  readonly cookies = new Map<string, string>();

  async request(
    url: string,
    init: { method?: string; form?: Record<string, string>; headers?: Record<string, string> } = {},
  ) {
    const headers: Record<string, string> = { ...init.headers };
    if (this.cookies.size) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    if (init.form) headers['content-type'] = 'application/x-www-form-urlencoded';
    const response = await fetch(url, {
      method: init.method ?? (init.form ? 'POST' : 'GET'),
      headers,
      redirect: 'manual',
      ...(init.form ? { body: new URLSearchParams(init.form).toString() } : {}),
    });
    for (const setCookie of response.headers.getSetCookie()) {
      const [pair, ...attributes] = setCookie.split(';');
      const at = pair!.indexOf('=');
      const name = pair!.slice(0, at).trim();
      const value = pair!.slice(at + 1).trim();
      const expired = attributes.some((a) => /^\s*max-age=0\s*$/i.test(a)) || value === '';
      if (expired) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const location = response.headers.get('location');
    return {
      response,
      location: location ? new URL(location, url).href : undefined,
      text: await response.text(),
    };
  }

  /**
   * Follows `url` through the IdP, signing in as `email` when the login form shows, and stops at
   * the first redirect that leaves the IdP (the client's redirect_uri), which it returns unfollowed;
   * '' when the flow ends on an IdP page (the device flow).
   */
  async signIn(url: string, email: string, idpOrigin: string): Promise<string> {
    let next = url;
    let form: Record<string, string> | undefined;
    for (let step = 0; step < 12; step++) {
      const { response, location, text } = await this.request(next, form ? { form } : {});
      form = undefined;
      if (location) {
        if (new URL(location).origin !== idpOrigin) return location;
        next = location;
        continue;
      }
      if (response.status !== 200) throw new Error(`IdP answered ${response.status}: ${text.slice(0, 500)}`);
      const action = /<form[^>]*action="([^"]+)"/.exec(text)?.[1];
      if (!action) return ''; // a final page (the device flow's "signed in" page)
      next = new URL(action.replaceAll('&amp;', '&'), next).href;
      form = {};
      for (const input of text.matchAll(/<input[^>]*type="hidden"[^>]*>/g)) {
        const name = /name="([^"]+)"/.exec(input[0])?.[1];
        const value = /value="([^"]*)"/.exec(input[0])?.[1];
        if (name) form[name] = value ?? '';
      }
      if (form.prompt === 'login') Object.assign(form, { login: email, password: 'dev' });
      if (/name="confirm"/.test(text)) form.confirm = 'yes';
    }
    throw new Error('Too many steps at the IdP.');
  }
}
