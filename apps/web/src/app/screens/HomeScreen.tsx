import { BannerCarousel } from '../../features/content/components/BannerCarousel.tsx';
import { NewsArea } from '../../features/content/components/NewsArea.tsx';
import { HomePage } from '../../features/home/components/HomePage.tsx';

/** / and /index: the home page (home feature) with the banners and news of the content feature. */
export function HomeScreen() {
  return <HomePage banners={<BannerCarousel />} news={<NewsArea />} />;
}
