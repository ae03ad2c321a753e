import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { CapsuleForm } from './capsule-form';
import { MediaLink } from './media-link';
import { MemorialPosts } from './memorial-posts';
import { PostForm } from './post-form';
import { RemembranceList } from './remembrance-list';
import { renderWithRouter } from '../../test-utils/render-with-router';
import type { MemorialPost } from './types';

const post = (over: Partial<MemorialPost>): MemorialPost => ({
  id: crypto.randomUUID(),
  text: 'We miss you',
  media_url: null,
  candle_count: 0,
  timestamp: '2026-11-01T10:00:00.000Z',
  lit_by_me: false,
  can_remove: false,
  ...over,
});

describe('MediaLink', () => {
  it('shows an https image as an image, without a referrer', () => {
    render(<MediaLink url="https://example.com/photos/grace.jpg" label="Photo of Grace" />);
    const img = screen.getByRole('img', { name: 'Photo of Grace' });
    expect(img.getAttribute('src')).toBe('https://example.com/photos/grace.jpg');
    expect(img.getAttribute('referrerpolicy')).toBe('no-referrer');
  });

  it('shows any other https address as a link that opens apart from the page', () => {
    render(<MediaLink url="https://example.com/story" label="x" />);
    const link = screen.getByRole('link', { name: 'example.com/story' });
    expect(link.getAttribute('rel')).toBe('noopener noreferrer nofollow ugc');
  });

  it('shows nothing for javascript:, data:, http: or a malformed address', () => {
    for (const url of ['javascript:alert(1)', 'data:text/html,<script>alert(1)</script>', 'http://example.com/a.png', 'not a url', null]) {
      const { container, unmount } = render(<MediaLink url={url} label="x" />);
      expect(container.innerHTML, String(url)).toBe('');
      unmount();
    }
  });
});

describe('MemorialPosts', () => {
  it('renders script in a post as text, and counts candles', () => {
    const { container } = render(
      <MemorialPosts
        posts={[post({ text: '<script>window.hacked = 1</script>', candle_count: 3 })]}
        onLight={vi.fn()}
        lightPending={false}
        onReport={vi.fn()}
        onRemove={vi.fn()}
      />,
    );
    expect(screen.getByText('<script>window.hacked = 1</script>')).toBeTruthy();
    expect(container.querySelector('script')).toBeNull();
    expect(screen.getByText('3 candles')).toBeTruthy();
  });

  it('lights a candle once: a lit post’s button says so and is disabled', () => {
    const onLight = vi.fn().mockResolvedValue(true);
    const unlit = post({});
    render(
      <MemorialPosts
        posts={[unlit, post({ lit_by_me: true, candle_count: 1 })]}
        onLight={onLight}
        lightPending={false}
        onReport={vi.fn()}
        onRemove={vi.fn()}
      />,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Light a candle' }));
    expect(onLight).toHaveBeenCalledWith(unlit.id);
    expect((screen.getByRole('button', { name: 'Candle lit' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('offers Remove on a post the visitor may remove (asked first), and Report on the others', async () => {
    const onReport = vi.fn().mockResolvedValue(true);
    const onRemove = vi.fn().mockResolvedValue(true);
    const theirs = post({ text: 'theirs' });
    const mine = post({ text: 'mine', can_remove: true });
    render(<MemorialPosts posts={[theirs, mine]} onLight={vi.fn()} lightPending={false} onReport={onReport} onRemove={onRemove} />);
    fireEvent.click(screen.getByRole('button', { name: 'Report' }));
    expect(onReport).toHaveBeenCalledWith(theirs.id);
    fireEvent.click(screen.getByRole('button', { name: 'Remove' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Remove post' }));
    await waitFor(() => expect(onRemove).toHaveBeenCalledWith(mine.id));
  });

  it('says so when nobody has posted yet', () => {
    render(<MemorialPosts posts={[]} onLight={vi.fn()} lightPending={false} onReport={vi.fn()} onRemove={vi.fn()} />);
    expect(screen.getByText('No one has posted yet.')).toBeTruthy();
  });
});

describe('PostForm', () => {
  it('refuses blank words and a media address that is not https, without sending', async () => {
    const onPost = vi.fn();
    render(<PostForm onPost={onPost} pending={false} />);
    fireEvent.change(screen.getByLabelText(/Your words/), { target: { value: '   ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Post' }));
    expect(await screen.findByText('Write something before posting.')).toBeTruthy();
    fireEvent.change(screen.getByLabelText(/Your words/), { target: { value: 'Thank you' } });
    fireEvent.change(screen.getByLabelText('Photo or link'), { target: { value: 'javascript:alert(1)' } });
    fireEvent.click(screen.getByRole('button', { name: 'Post' }));
    expect(await screen.findByText('Use an address that starts with https://')).toBeTruthy();
    expect(onPost).not.toHaveBeenCalled();
  });

  it('sends the words and the address, then clears', async () => {
    const onPost = vi.fn().mockResolvedValue(true);
    render(<PostForm onPost={onPost} pending={false} />);
    fireEvent.change(screen.getByLabelText(/Your words/), { target: { value: ' Thank you ' } });
    fireEvent.change(screen.getByLabelText('Photo or link'), { target: { value: 'https://example.com/a.jpg' } });
    fireEvent.click(screen.getByRole('button', { name: 'Post' }));
    await waitFor(() => expect(onPost).toHaveBeenCalledWith('Thank you', 'https://example.com/a.jpg'));
    await waitFor(() => expect((screen.getByLabelText(/Your words/) as HTMLTextAreaElement).value).toBe(''));
  });
});

describe('CapsuleForm', () => {
  it('asks for a title and the letter before saving', async () => {
    const onCreate = vi.fn();
    render(<CapsuleForm onCreate={onCreate} pending={false} />);
    fireEvent.click(screen.getByRole('button', { name: 'Save capsule' }));
    expect(await screen.findByText('Give it a title.')).toBeTruthy();
    expect(screen.getByText('Write the letter.')).toBeTruthy();
    expect(onCreate).not.toHaveBeenCalled();
  });

  it('sends one text item, anonymous by default, opening now when no date is given', async () => {
    const onCreate = vi.fn().mockResolvedValue(true);
    render(<CapsuleForm onCreate={onCreate} pending={false} />);
    fireEvent.change(screen.getByLabelText(/Title/), { target: { value: 'To you' } });
    fireEvent.change(screen.getByLabelText('Theme'), { target: { value: 'Advice' } });
    fireEvent.change(screen.getByLabelText(/Letter/), { target: { value: 'Be kind.' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save capsule' }));
    await waitFor(() =>
      expect(onCreate).toHaveBeenCalledWith({
        title: 'To you',
        theme: 'Advice',
        is_anonymous: true,
        release_at: null,
        content: [{ type: 'text', data: 'Be kind.' }],
        memorial_id: null,
      }),
    );
  });
});

describe('RemembranceList', () => {
  it('links each remembrance to its memorial and shows its words as text', async () => {
    const memorialId = crypto.randomUUID();
    renderWithRouter(() => (
      <RemembranceList
        items={[
          {
            id: 'p1',
            memorial_id: memorialId,
            memorial_name: 'Grace',
            text: '<img src=x onerror=alert(1)>',
            media_url: null,
            candle_count: 1,
            timestamp: '2026-11-01T10:00:00.000Z',
          },
        ]}
      />
    ));
    expect((await screen.findByRole('link', { name: 'Grace' })).getAttribute('href')).toBe(`/app/memorial/${memorialId}`);
    expect(screen.getByText('<img src=x onerror=alert(1)>')).toBeTruthy();
    expect(screen.getByText(/1 candle$/)).toBeTruthy();
  });

  it('says so when nothing matches', async () => {
    renderWithRouter(() => <RemembranceList items={[]} />);
    expect(await screen.findByText('No remembrance matches.')).toBeTruthy();
  });
});
