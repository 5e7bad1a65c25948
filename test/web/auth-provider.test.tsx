/**
 * When the header's auth state loads auth-js (web/src/auth/AuthProvider.tsx): only when there is
 * a session to look after, so a visitor who never signed in downloads none of it; and once
 * anything loaded it, the header follows its events.
 */
import { act, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { AuthProvider } from "../../web/src/auth/AuthProvider";
import { useAuth } from "../../web/src/auth/auth-context";

type Listener = (event: string, session: { user: { email: string } } | null) => void;

const fakeClient = vi.hoisted(() => {
  const listeners: Listener[] = [];
  const loadedCallbacks: ((client: unknown) => void)[] = [];
  const client = {
    onAuthStateChange(listener: Listener) {
      listeners.push(listener);
      return { data: { subscription: { unsubscribe: () => listeners.splice(listeners.indexOf(listener), 1) } } };
    },
  };
  return {
    client,
    listeners,
    loadedCallbacks,
    getAuthClient: vi.fn(async () => {
      for (const callback of loadedCallbacks.splice(0)) callback(client);
      return client;
    }),
  };
});

vi.mock("../../web/src/auth/client", () => ({
  AUTH_STORAGE_KEY: "hwh-auth",
  getAuthClient: fakeClient.getAuthClient,
  onAuthClientLoaded: (callback: (client: unknown) => void) => {
    fakeClient.loadedCallbacks.push(callback);
    return () => {};
  },
}));

function WhoIsSignedIn() {
  const { email } = useAuth();
  return <p>{email ?? "nobody"}</p>;
}

const storedSession = (email: string) =>
  JSON.stringify({ access_token: "a.b.c", refresh_token: "r", expires_at: 9_999_999_999, user: { email } });

afterEach(() => {
  fakeClient.getAuthClient.mockClear();
  fakeClient.listeners.splice(0);
  fakeClient.loadedCallbacks.splice(0);
});

describe("AuthProvider", () => {
  it("does not load auth-js for a visitor with no stored session", async () => {
    vi.useFakeTimers();
    render(
      <AuthProvider>
        <WhoIsSignedIn />
      </AuthProvider>,
    );
    await act(async () => vi.advanceTimersByTimeAsync(5_000));
    expect(screen.getByText("nobody")).toBeTruthy();
    expect(fakeClient.getAuthClient).not.toHaveBeenCalled();
  });

  it("shows a stored session's e-mail at once, then loads auth-js when idle and follows its events", async () => {
    vi.useFakeTimers();
    window.localStorage.setItem("hwh-auth", storedSession("stored@example.com"));
    render(
      <AuthProvider>
        <WhoIsSignedIn />
      </AuthProvider>,
    );
    expect(screen.getByText("stored@example.com")).toBeTruthy();
    await act(async () => vi.advanceTimersByTimeAsync(3_000));
    expect(fakeClient.getAuthClient).toHaveBeenCalledTimes(1);

    act(() => {
      for (const listener of fakeClient.listeners) listener("SIGNED_OUT", null);
    });
    expect(screen.getByText("nobody")).toBeTruthy();
  });

  it("loads auth-js when another tab signs in (a storage event)", async () => {
    vi.useFakeTimers();
    render(
      <AuthProvider>
        <WhoIsSignedIn />
      </AuthProvider>,
    );
    act(() => {
      window.localStorage.setItem("hwh-auth", storedSession("other-tab@example.com"));
      window.dispatchEvent(new StorageEvent("storage", { key: "hwh-auth" }));
    });
    expect(screen.getByText("other-tab@example.com")).toBeTruthy();
    await act(async () => vi.advanceTimersByTimeAsync(3_000));
    expect(fakeClient.getAuthClient).toHaveBeenCalledTimes(1);
  });

  it("follows the events once a page (the login page) loaded auth-js", async () => {
    render(
      <AuthProvider>
        <WhoIsSignedIn />
      </AuthProvider>,
    );
    await act(async () => {
      await fakeClient.getAuthClient();
    });
    act(() => {
      for (const listener of fakeClient.listeners) listener("SIGNED_IN", { user: { email: "new@example.com" } });
    });
    expect(screen.getByText("new@example.com")).toBeTruthy();
  });
});
