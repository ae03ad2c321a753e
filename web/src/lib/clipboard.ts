import { toast } from '../components/toast';

/** Copies text and says so in a toast; when the browser refuses, says what to do instead. */
export async function copyText(text: string, successMessage: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    toast.success(successMessage);
    return true;
  } catch {
    toast.error('Could not copy. Select the text and copy it yourself.');
    return false;
  }
}
